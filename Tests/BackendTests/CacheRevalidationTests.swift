@testable import BackendCache
@testable import BackendCore
import Backend
import Foundation
import TestSupport
import XCTest

/// Against the local HTTP test server: the media cache honours `no-store`,
/// revalidates a hit with one conditional request once its interval (or `max-age`) has passed
/// (304 → the local copy plays, 200 → it is replaced), and asks nothing within the interval or
/// offline. The served file is replaced between plays by writing it into the server's media dir.
final class CacheRevalidationTests: XCTestCase {
    private var server: HTTPTestServer!
    private var media: String!
    private var dir: String!

    override func setUpWithError() throws {
        let base = NSTemporaryDirectory() + "gstplay-revalidate-\(UUID().uuidString)"
        media = base + "/media"
        dir = base + "/cache"
        try FileManager.default.createDirectory(atPath: media, withIntermediateDirectories: true)
        try serve(TestMedia.vp8)
        server = try HTTPTestServer(media: media)
    }

    override func tearDown() {
        server.stop()
        try? FileManager.default.removeItem(atPath: (dir as NSString).deletingLastPathComponent)
    }

    /// Makes `/file/clip` serve a copy of `fixture` (a new mtime and size: a new ETag).
    private func serve(_ fixture: String) throws {
        let target = media + "/clip"
        try? FileManager.default.removeItem(atPath: target)
        try FileManager.default.copyItem(atPath: fixture, toPath: target)
    }

    /// Plays `path` to EOS or an error with `cache`; returns the events.
    private func play(_ path: String, cache: MediaCache, file: StaticString = #filePath, line: UInt = #line) -> [PlayerEvent] {
        let recorder = EventRecorder()
        let player = Player.forTesting(recorder) { $0.networkTimeout = .seconds(5) } standard: { $0.cache = cache }
        defer { player.shutdown() }
        player.load(server.url(path))
        recorder.waitFor("EOS or error", timeout: 30, file: file, line: line) { events in
            events.contains(where: \.isEndOfStream) || events.contains { $0.error != nil }
        }
        XCTAssertNil(recorder.events.lazy.compactMap(\.error).first, file: file, line: line)
        return recorder.events
    }

    private func states(_ events: [PlayerEvent]) -> [CacheStatus.State] {
        events.compactMap { if case .status(let status)? = $0.payload(as: CacheEvent.self) { return status.state } else { return nil } }
    }

    private func cachedBytes(_ cache: MediaCache, _ path: String) throws -> Data {
        let entry = try XCTUnwrap(cache.find(server.url(path)))
        return try Data(contentsOf: URL(fileURLWithPath: cache.path(of: entry)))
    }

    func testAReplacedFileIsRevalidatedAndReplaced() throws {
        let cache = MediaCache(directory: dir, revalidateInterval: 0)
        XCTAssertEqual(states(play("/file/clip", cache: cache)), [.miss, .storing, .stored])
        try serve(TestMedia.theora)
        _ = server.requests(clear: true)
        let second = play("/file/clip", cache: cache)
        XCTAssertEqual(states(second), [.miss, .storing, .stored], "a changed file is downloaded again")
        let requests = server.requests()
        XCTAssertEqual(requests.first?.status, 200, "\(requests)")
        XCTAssertNotNil(requests.first?.ifNoneMatch, "the first request is the conditional one: \(requests)")
        XCTAssertEqual(try cachedBytes(cache, "/file/clip"), try Data(contentsOf: URL(fileURLWithPath: TestMedia.theora)))
    }

    func testAnUnchangedFileIsRevalidatedWithOneRequestAnd304() throws {
        let cache = MediaCache(directory: dir, revalidateInterval: 0)
        _ = play("/file/clip", cache: cache)
        let stored = try XCTUnwrap(cache.find(server.url("/file/clip")))
        _ = server.requests(clear: true)
        XCTAssertEqual(states(play("/file/clip", cache: cache)), [.hit])
        let requests = server.requests()
        XCTAssertEqual(requests.count, 1, "\(requests)")
        XCTAssertEqual(requests.first?.status, 304)
        XCTAssertEqual(requests.first?.ifNoneMatch, stored.etag)
        XCTAssertEqual(requests.first?.ifModifiedSince, stored.lastModified)
        let validated = try XCTUnwrap(cache.find(server.url("/file/clip"))?.validatedAt)
        XCTAssertGreaterThan(validated, stored.storedAt)
    }

    func testWithinTheIntervalAndOfflineNoRequestIsMade() throws {
        _ = play("/file/clip", cache: MediaCache(directory: dir))
        try serve(TestMedia.theora)
        _ = server.requests(clear: true)
        XCTAssertEqual(states(play("/file/clip", cache: MediaCache(directory: dir))), [.hit])
        XCTAssertEqual(states(play("/file/clip", cache: MediaCache(directory: dir, revalidateInterval: 0, offline: true))), [.hit])
        XCTAssertEqual(server.requests(), [], "within the interval and offline: no request")
        XCTAssertEqual(try cachedBytes(MediaCache(directory: dir), "/file/clip"), try Data(contentsOf: URL(fileURLWithPath: TestMedia.vp8)))
    }

    func testNoStoreIsNeverStored() throws {
        let cache = MediaCache(directory: dir)
        let events = play("/file/clip?cc=no-store", cache: cache)
        XCTAssertEqual(states(events).last, .discarded, "\(states(events))")
        XCTAssertNil(cache.find(server.url("/file/clip?cc=no-store")))
        XCTAssertEqual(try cache.entries(), [])
    }

    func testMaxAgeZeroRevalidatesWithinTheInterval() throws {
        let cache = MediaCache(directory: dir)     // one hour
        _ = play("/file/clip?cc=max-age=0", cache: cache)
        XCTAssertEqual(cache.find(server.url("/file/clip?cc=max-age=0"))?.control?.maxAge, 0)
        _ = server.requests(clear: true)
        XCTAssertEqual(states(play("/file/clip?cc=max-age=0", cache: cache)), [.hit])
        XCTAssertEqual(server.requests().map(\.status), [304])
    }

    /// The load that waits for the revalidation runs again with its start position
    /// (``FeatureMedia/loadingStart``).
    func testARevalidatedLoadKeepsItsStartPosition() throws {
        let cache = MediaCache(directory: dir, revalidateInterval: 0)
        _ = play("/file/clip", cache: cache)
        _ = server.requests(clear: true)
        let recorder = EventRecorder()
        let player = Player.forTesting(recorder) { $0.networkTimeout = .seconds(5); $0.autoplay = false } standard: { $0.cache = cache }
        defer { player.shutdown() }
        player.load(server.url("/file/clip"), startAt: .time(MediaTime(seconds: 2)))
        let landed = recorder.waitForValue("seek done") { $0.seekDone }
        XCTAssertEqual(landed?.seconds ?? 0, 2.0, accuracy: 0.1)
        XCTAssertEqual(server.requests().map(\.status), [304], "one conditional request, then the cached copy")
        XCTAssertEqual(states(recorder.events), [.hit])
    }

    func testAServerGoneAtRevalidationPlaysTheCopyWithAWarning() throws {
        let cache = MediaCache(directory: dir, revalidateInterval: 0)
        _ = play("/file/clip", cache: cache)
        server.stop()
        let events = play("/file/clip", cache: cache)
        XCTAssertEqual(states(events), [.hit])
        let warnings = events.compactMap { if case .warning(let w) = $0 { return w.message } else { return nil } }
        XCTAssertTrue(warnings.contains { $0.contains("could not revalidate") }, "\(warnings)")
    }
}
