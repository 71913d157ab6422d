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
        // The verdict comes right after the load's uriLoaded (docs/PROTOCOL.md: `cache` follows `uri`).
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

    /// The warnings' messages in `recorder`.
    private func warnings(_ recorder: EventRecorder) -> [String] {
        recorder.events.compactMap { if case .warning(let w) = $0 { return w.message } else { return nil } }
    }

    /// Plays `path` once more with a fresh player to EOS or an error; the recorder.
    private func playRecorded(_ path: String) -> EventRecorder {
        let recorder = EventRecorder()
        let player = player(recorder)
        defer { player.shutdown() }
        player.load(server.url(path))
        recorder.waitFor("EOS or error", timeout: 30) { $0.contains(where: \.isEndOfStream) || $0.contains { $0.error != nil } }
        return recorder
    }

    /// A cached copy overwritten with other bytes of the same size (its size still matches the
    /// index) is not the media: the error is not reported, the copy is removed and the URI is
    /// fetched again, played to the end and stored anew, with one warning.
    func testACachedCopyOverwrittenWithGarbageIsFetchedAgainOnce() throws {
        let path = "/file/vp8-opus-4s.webm"
        XCTAssertEqual(play(path).last?.state, .stored)
        let entry = try XCTUnwrap(cache.lookup(server.url(path)))
        var garbage = [UInt8](repeating: 0, count: Int(entry.size))
        var generator = SystemRandomNumberGenerator()
        for index in garbage.indices { garbage[index] = UInt8.random(in: 0...255, using: &generator) }
        try Data(garbage).write(to: URL(fileURLWithPath: cache.path(of: entry)))
        _ = server.requests(clear: true)
        let recorder = playRecorded(path)
        XCTAssertNil(recorder.events.lazy.compactMap(\.error).first, "\(recorder.events)")
        XCTAssertTrue(recorder.events.contains(where: \.isEndOfStream))
        XCTAssertEqual(statuses(recorder).map(\.state), [.hit, .miss, .storing, .stored], "\(statuses(recorder)) \(warnings(recorder))")
        let notes = warnings(recorder).filter { $0.contains("the cached copy could not be played") }
        XCTAssertEqual(notes.count, 1, "\(warnings(recorder))")
        XCTAssertEqual(server.requests().count, 1, "fetched again once")
        let fresh = try XCTUnwrap(cache.lookup(server.url(path)))
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: cache.path(of: fresh))), try Data(contentsOf: URL(fileURLWithPath: TestMedia.vp8)))
    }

    /// A cache whose `partial/` takes no file (read-only; `/sys/kernel` refuses even root) plays
    /// new URIs from the network with one warning, as documented, instead of failing them.
    func testAReadOnlyCachePlaysFromTheNetworkWithOneWarning() throws {
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: dir + "/partial", withDestinationPath: "/sys/kernel")
        let recorder = playRecorded("/file/vp8-opus-4s.webm")
        XCTAssertNil(recorder.events.lazy.compactMap(\.error).first, "\(recorder.events)")
        XCTAssertTrue(recorder.events.contains(where: \.isEndOfStream))
        let notes = warnings(recorder).filter { $0.contains("media cache: cannot write downloads into") }
        XCTAssertEqual(notes.count, 1, "\(warnings(recorder))")
        XCTAssertTrue(notes.first?.contains("Permission denied") ?? false, "\(notes)")
    }

    /// A damaged index while playing: the entries that read still play from the cache, and one
    /// warning says what was dropped (once: the index is whole again afterwards).
    func testADamagedIndexIsRepairedWithOneWarningAndItsGoodEntriesStillPlay() throws {
        let good = "/file/vp8-opus-4s.webm", other = "/file/vp8-opus-4s.webm?other=1"
        XCTAssertEqual(play(good).last?.state, .stored)
        XCTAssertEqual(play(other).last?.state, .stored)
        let indexURL = URL(fileURLWithPath: dir + "/index.json")
        var index = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: indexURL)) as? [String: Any])
        var entries = try XCTUnwrap(index["entries"] as? [[String: Any]])
        let broken = try XCTUnwrap(entries.firstIndex { $0["uri"] as? String == server.url(other) })
        entries[broken]["lastUsed"] = "yesterday"
        index["entries"] = entries
        try JSONSerialization.data(withJSONObject: index).write(to: indexURL)
        _ = server.requests(clear: true)
        let first = playRecorded(good)
        XCTAssertEqual(statuses(first).map(\.state), [.hit])
        let notes = warnings(first).filter { $0.contains("1 of 2 entries of the cache index") }
        XCTAssertEqual(notes.count, 1, "\(warnings(first))")
        let second = playRecorded(good)
        XCTAssertEqual(statuses(second).map(\.state), [.hit])
        XCTAssertEqual(warnings(second), [], "said once")
        XCTAssertEqual(server.requests(), [])
    }
}

private extension CachePlayerTests {
    func statuses(recorder events: [PlayerEvent]) -> [CacheStatus] {
        events.compactMap { if case .status(let status)? = $0.payload(as: CacheEvent.self) { return status } else { return nil } }
    }
}
