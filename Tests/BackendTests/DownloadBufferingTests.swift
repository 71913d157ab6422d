@testable import BackendCore
import Backend
import CGStreamer
import Foundation
import TestSupport
import XCTest

/// On a real pipeline, a `downloadbuffer` posts BUFFERING from two streaming threads,
/// after releasing its lock, so a lower level computed before its 100 % can reach the bus after
/// it (seen as bus seqnums arriving out of order, `docs/RELIABILITY.md`). The element then stays
/// silent (it posts again only below 10 %), and a player that trusts the late level waits
/// forever with the whole file on disk. These tests replay that late message from the very
/// `downloadbuffer` of a real HTTP download: the same message GStreamer posts, at the moment
/// the race delivers it.
final class DownloadBufferingTests: XCTestCase {
    private var server: HTTPTestServer!

    override func setUpWithError() throws { server = try HTTPTestServer() }
    override func tearDown() { server.stop() }

    /// A player on the throttled H.264 + AC-3 fixture, playing, once its downloadbuffer holds
    /// the whole file and is not buffering (the caller shuts it down).
    private func playingWithTheWholeFileDownloaded(_ recorder: EventRecorder, file: StaticString = #filePath, line: UInt = #line) -> Player {
        let player = Player.forTesting(recorder)
        player.load(server.url("/file/h264-ac3-10s.mkv?rate=1000000"))
        recorder.waitFor("playing", timeout: 20, file: file, line: line, recorder.reachedState(.playing))
        let settled = eventually(timeout: .seconds(10)) {
            downloadBufferAnswer(player).map { $0.holdsEverything && !$0.busy } ?? false
        }
        XCTAssertTrue(settled, "the downloadbuffer holds the whole file and is not buffering: \(String(describing: downloadBufferAnswer(player)))",
                      file: file, line: line)
        return player
    }

    /// The download is complete and the element says it is not buffering: a late 34 % from it
    /// must not pause playback, and the file plays to the end.
    func testALateLowerLevelAfterTheDownloadCompletedNeverPauses() {
        let recorder = EventRecorder()
        let player = playingWithTheWholeFileDownloaded(recorder)
        defer { player.shutdown() }
        let mark = recorder.count
        XCTAssertTrue(postLateLevel(player, percent: 34), "a downloadbuffer to post from")
        recorder.waitFor("EOS after the late level", timeout: 20) { events in
            events.contains(where: \.isEndOfStream) || events.contains { $0.error != nil }
        }
        let after = recorder.events.dropFirst(mark)
        XCTAssertFalse(after.contains(.buffering(percent: 34)), "the late level is not reported: \(Array(after.prefix(8)))")
        XCTAssertFalse(after.contains { if case .stateChanged(_, .buffering) = $0 { return true } else { return false } },
                       "no buffering state after the late level")
        XCTAssertNil(recorder.events.lazy.compactMap(\.error).first)
        XCTAssertEqual(player.duration?.seconds ?? 0, 10.016, accuracy: 0.1)
    }

    /// A hold for a download-mode element that no message will end (the late level was acted
    /// on before the element's answer could contradict it): the 500 ms re-check asks the
    /// element, sees the whole file, and resumes; the file plays to the end.
    func testAHoldForADownloadBufferIsEndedByTheRecheckWhenTheDataIsThere() {
        let recorder = EventRecorder()
        let player = playingWithTheWholeFileDownloaded(recorder)
        defer { player.shutdown() }
        let mark = recorder.count
        var name: String?
        player.withEngine { engine in
            name = engine.facts.downloadBufferName
            engine.apply(.pause(percent: 34), mode: .download)
        }
        XCTAssertNotNil(name, "the engine knows which downloadbuffer it holds for")
        recorder.waitFor("buffering 100 from the re-check", timeout: 5) { events in
            events.dropFirst(mark).contains(.buffering(percent: 100))
        }
        recorder.waitFor("EOS after the re-check", timeout: 20) { events in
            events.contains(where: \.isEndOfStream) || events.contains { $0.error != nil }
        }
        // Position ticks (every 250 ms, on their own timer) may fall inside the 500 ms hold (seen
        // under a loaded `make test`: playing→buffering, 34, position, 100, …), so they are left
        // out: what counts is that the hold and the resume come first and in this order.
        let after = Array(recorder.events.dropFirst(mark))
        let changes = after.filter { if case .position = $0 { return false } else { return true } }
        XCTAssertEqual(Array(changes.prefix(4)), [.stateChanged(from: .playing, to: .buffering), .buffering(percent: 34),
                                                  .buffering(percent: 100), .stateChanged(from: .buffering, to: .playing)],
                       "held at 34 %, then resumed: \(after.prefix(6))")
        XCTAssertNil(recorder.events.lazy.compactMap(\.error).first)
    }

    // MARK: Helpers

    /// Runs `body` on the loop thread with the playbin's `downloadbuffer`, if it has one.
    private func withDownloadBuffer<T>(_ player: Player, _ body: @escaping (UnsafeMutablePointer<GstElement>) -> T?) -> T? {
        var result: T?
        player.withEngine { engine in
            guard let playbin = engine.pipeline?.element,
                  let iterator = gst_bin_iterate_all_by_element_factory_name(CGStreamer_as_bin(playbin), "downloadbuffer") else { return }
            defer { gst_iterator_free(iterator) }
            var value = GValue()
            guard gst_iterator_next(iterator, &value) == GST_ITERATOR_OK else { return }
            defer { g_value_unset(&value) }
            if let object = g_value_get_object(&value) { result = body(object.assumingMemoryBound(to: GstElement.self)) }
        }
        return result
    }

    /// The downloadbuffer's answer to a buffering query in percent.
    private func downloadBufferAnswer(_ player: Player) -> BufferingQuery? {
        withDownloadBuffer(player) { BufferingQuery.ask($0, format: GST_FORMAT_PERCENT) }
    }

    /// Posts BUFFERING `percent` in `GST_BUFFERING_DOWNLOAD` mode from the downloadbuffer, as
    /// its streaming thread does when it loses the race to the bus.
    private func postLateLevel(_ player: Player, percent: Int32) -> Bool {
        withDownloadBuffer(player) { element -> Bool? in
            guard let message = gst_message_new_buffering(CGStreamer_as_object(UnsafeMutableRawPointer(element)), percent) else { return nil }
            gst_message_set_buffering_stats(message, GST_BUFFERING_DOWNLOAD, 0, 0, -1)
            return gst_element_post_message(element, message) != 0
        } ?? false
    }
}
