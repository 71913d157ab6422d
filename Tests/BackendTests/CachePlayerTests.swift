@testable import BackendCache
@testable import BackendCore
import Backend
import Foundation
import TestSupport
import XCTest

/// The media cache in the player (seed 001), against the local HTTP test server: complete
/// downloads are stored and replayed with no request; cut, stalled, seeked-ahead and failed
/// ones are not.
final class CachePlayerTests: XCTestCase {
    private var server: HTTPTestServer!
    private var dir: String!
    private var cache: MediaCache!

    override func setUpWithError() throws {
        server = try HTTPTestServer()
        dir = NSTemporaryDirectory() + "gstplay-cacheplayer-\(UUID().uuidString)"
        cache = MediaCache(directory: dir)
    }

    override func tearDown() {
        server.stop()
        try? FileManager.default.removeItem(atPath: dir)
    }

    private func player(_ recorder: EventRecorder, timeout: UInt32 = 15) -> Player {
        Player.forTesting(recorder) {
            $0.networkTimeout = .seconds(timeout)
        } standard: { [cache] in
            $0.cache = cache
        }
    }

    /// Plays `path` on the server to EOS or an error; returns the cache statuses seen.
    @discardableResult
    private func play(_ path: String, timeout: TimeInterval = 20, seek: ((Player, EventRecorder) -> Void)? = nil,
                      file: StaticString = #filePath, line: UInt = #line) -> [CacheStatus] {
        let recorder = EventRecorder()
        let player = player(recorder)
        defer { player.shutdown() }
        player.load(server.url(path))
        seek?(player, recorder)
        recorder.waitFor("EOS or error", timeout: timeout, file: file, line: line) { events in
            events.contains(where: \.isEndOfStream) || events.contains { $0.error != nil }
        }
        return statuses(recorder)
    }

    private func statuses(_ recorder: EventRecorder) -> [CacheStatus] {
        recorder.events.compactMap { if case .status(let status)? = $0.payload(as: CacheEvent.self) { return status } else { return nil } }
    }

    private var partials: [String] { (try? FileManager.default.contentsOfDirectory(atPath: dir + "/partial")) ?? [] }

    func testACompleteDownloadIsStoredAndReplayedWithoutTheNetwork() throws {
        let path = "/file/vp8-opus-4s.webm"
        let first = play(path)
        XCTAssertEqual(first.map(\.state), [.miss, .storing, .stored], "\(first)")
        let entry = try XCTUnwrap(cache.lookup(server.url(path)))
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: cache.path(of: entry))), try Data(contentsOf: URL(fileURLWithPath: TestMedia.vp8)))
        XCTAssertNotNil(entry.etag)
        XCTAssertNotNil(entry.lastModified)
        XCTAssertEqual(partials, [])
        // Second play: from the file, not one request.
        _ = server.requests(clear: true)
        let recorder = EventRecorder()
        let player = player(recorder)
        player.load(server.url(path))
        recorder.waitFor("EOS from the cache") { $0.contains(where: \.isEndOfStream) || $0.contains { $0.error != nil } }
        XCTAssertNil(recorder.events.lazy.compactMap(\.error).first)
        XCTAssertEqual(statuses(recorder), [CacheStatus(state: .hit, path: cache.path(of: entry))])
        // The verdict comes right after the load's uriLoaded (the wire's order before issue 21).
        let loaded = try XCTUnwrap(recorder.events.firstIndex { if case .uriLoaded = $0 { return true } else { return false } })
        XCTAssertEqual(recorder.events.dropFirst(loaded + 1).first?.payload(as: CacheEvent.self), .status(CacheStatus(state: .hit, path: cache.path(of: entry))))
        XCTAssertEqual(player.refreshStatistics().cache?.state, .hit)
        XCTAssertEqual(player.duration?.seconds ?? 0, 4, accuracy: 0.05)
        player.shutdown()
        XCTAssertEqual(server.requests(), [], "a cached URI makes no request")
        // Third play with the server gone: offline replay.
        server.stop()
        let offline = play(path)
        XCTAssertEqual(offline.map(\.state), [.hit])
    }

    func testAStoppedDownloadIsDiscarded() throws {
        let recorder = EventRecorder()
        let player = player(recorder)
        player.load(server.url("/file/h264-aac-10s.mp4?rate=20000"))
        recorder.waitFor("storing") { self.statuses(recorder: $0).contains { $0.state == .storing } }
        let deadline = Date().addingTimeInterval(10)
        while partials.isEmpty && Date() < deadline { usleep(10_000) }
        XCTAssertEqual(partials.count, 1, "the download goes to partial/")
        let mark = recorder.count
        player.stop()
        _ = recorder.waitForValue("idle", after: mark) { $0.newState == .idle ? true : nil }
        let last = try XCTUnwrap(player.refreshStatistics().cache)
        player.shutdown()
        XCTAssertEqual(last.state, .discarded, "\(last)")
        XCTAssertTrue(last.reason?.contains("incomplete") ?? false, "\(last)")
        XCTAssertNil(try cache.lookup(server.url("/file/h264-aac-10s.mp4?rate=20000")))
        XCTAssertEqual(partials, [], "no partial file is kept")
    }

    func testAResetMidBodyIsResumedWithRangeAndTheWholeFileIsStored() throws {
        let path = "/reset/vp8-opus-4s.webm?after=30000&key=\(UUID().uuidString)"
        let statuses = play(path)
        XCTAssertEqual(statuses.last?.state, .stored, "\(statuses)")
        XCTAssertTrue(server.requests().contains { $0.range == "bytes=30000-" }, "\(server.requests())")
        let entry = try XCTUnwrap(cache.lookup(server.url(path)))
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: cache.path(of: entry))), try Data(contentsOf: URL(fileURLWithPath: TestMedia.vp8)))
    }

    func testADownloadCutForGoodIsNotStored() throws {
        let recorder = EventRecorder()
        let player = player(recorder, timeout: 1)
        let path = "/stall/h264-aac-10s.mp4?after=40000"
        player.load(server.url(path))
        let error = recorder.waitForValue("network error", timeout: 30) { $0.error }
        player.shutdown()
        XCTAssertEqual(error?.kind, .network)
        XCTAssertEqual(statuses(recorder).last?.state, .discarded, "\(statuses(recorder))")
        XCTAssertNil(try cache.lookup(server.url(path)))
        XCTAssertEqual(partials, [])
    }

    /// A ~5 MB, 8 s H.264 MP4 (moov first) made once per run: downloadbuffer only asks the
    /// server for a new range when the read is more than 512 KiB past its data.
    private static let bigMedia: String = {
        let dir = NSTemporaryDirectory() + "gstplay-cache-media-\(getpid())"
        try? FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["gst-launch-1.0", "-q", "-e", "videotestsrc", "num-buffers=240", "pattern=snow", "!",
                             "video/x-raw,width=320,height=240,framerate=30/1", "!", "openh264enc", "gop-size=30", "!", "h264parse",
                             "!", "mp4mux", "faststart=true", "!", "filesink", "location=\(dir)/big-8s.mp4"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try? process.run()
        process.waitUntilExit()
        return dir
    }()

    func testASeekBeyondTheDownloadedDataIsReadWithRangeAndNotStored() throws {
        server.stop()
        server = try HTTPTestServer(media: Self.bigMedia)
        let size = try XCTUnwrap(FileManager.default.attributesOfItem(atPath: Self.bigMedia + "/big-8s.mp4")[.size] as? Int)
        XCTAssertGreaterThan(size, 2_000_000)
        // At 300 KB/s the data at 6 s is ~12 s away when the media opens.
        let path = "/file/big-8s.mp4?rate=300000&chunk=16384"
        let statuses = play(path, timeout: 40) { player, recorder in
            recorder.waitFor("media info", timeout: 15) { $0.contains { if case .mediaInfo = $0 { return true } else { return false } } }
            player.seek(to: MediaTime(seconds: 6))
        }
        let ranges = server.requests().compactMap(\.range)
        XCTAssertTrue(ranges.contains { $0 != "bytes=0-" }, "the seek is served with a Range request: \(server.requests())")
        XCTAssertEqual(statuses.last?.state, .discarded, "\(statuses)")
        XCTAssertTrue(statuses.last?.reason?.contains("disjoint") ?? false, "\(statuses)")
        XCTAssertNil(try cache.lookup(server.url(path)))
        XCTAssertEqual(partials, [])
    }

    override class func tearDown() {
        try? FileManager.default.removeItem(atPath: NSTemporaryDirectory() + "gstplay-cache-media-\(getpid())")
    }

    func testATimeoutIsRetriedAndTheFileStillStoredWhole() throws {
        let key = UUID().uuidString
        let recorder = EventRecorder()
        let player = player(recorder, timeout: 1)
        let path = "/flaky/vp8-opus-4s.webm?after=20000&key=\(key)"
        player.load(server.url(path))
        recorder.waitFor("EOS after a retry", timeout: 30) { $0.contains(where: \.isEndOfStream) || $0.contains { $0.error != nil } }
        player.shutdown()
        XCTAssertNil(recorder.events.lazy.compactMap(\.error).first)
        XCTAssertGreaterThanOrEqual(server.hits(key), 2)
        XCTAssertEqual(statuses(recorder).last?.state, .stored, "\(statuses(recorder))")
        let entry = try XCTUnwrap(cache.lookup(server.url(path)))
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: cache.path(of: entry))), try Data(contentsOf: URL(fileURLWithPath: TestMedia.vp8)))
        XCTAssertEqual(partials, [])
    }

    func testA404IsAnErrorAndNothingIsStored() throws {
        let recorder = EventRecorder()
        let player = player(recorder)
        player.load(server.url("/status/404"))
        let error = recorder.waitForValue("error") { $0.error }
        player.shutdown()
        XCTAssertEqual(error?.httpStatus, 404)
        XCTAssertEqual(try cache.entries(), [])
        XCTAssertEqual(partials, [])
    }

    func testAServerIgnoringRangeStillGivesACompleteCopy() throws {
        let path = "/file/vp8-opus-4s.webm?norange=1"
        let statuses = play(path)
        XCTAssertEqual(statuses.last?.state, .stored, "\(statuses)")
        XCTAssertEqual(try cache.entries().map(\.size), [88348])
    }

    func testTwoPlayersOnTheSameURIAtOnce() throws {
        let path = "/file/vp8-opus-4s.webm?rate=60000"
        let recorders = [EventRecorder(), EventRecorder()]
        let players = recorders.map { player($0) }
        for player in players { player.load(server.url(path)) }
        for recorder in recorders {
            recorder.waitFor("EOS", timeout: 25) { $0.contains(where: \.isEndOfStream) || $0.contains { $0.error != nil } }
            XCTAssertNil(recorder.events.lazy.compactMap(\.error).first)
            XCTAssertEqual(statuses(recorder).last?.state, .stored, "\(statuses(recorder))")
        }
        for player in players { player.shutdown() }
        let entries = try cache.entries()
        XCTAssertEqual(entries.count, 1)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: cache.path(of: entries[0]))), try Data(contentsOf: URL(fileURLWithPath: TestMedia.vp8)))
        XCTAssertEqual(partials, [])
    }
}

private extension CachePlayerTests {
    func statuses(recorder events: [PlayerEvent]) -> [CacheStatus] {
        events.compactMap { if case .status(let status)? = $0.payload(as: CacheEvent.self) { return status } else { return nil } }
    }
}
