import Backend
import Foundation
import ProcessProbe
import TestSupport
import XCTest

/// Shutdown, create/shutdown cycles and a delegate that calls back into the player, on real pipelines.
final class PlayerLifecycleTests: XCTestCase {
    func testGettersAndStatisticsAfterShutdownDoNotBlock() {
        let recorder = EventRecorder()
        let player = Player.forTesting(recorder)
        player.load(TestMedia.vp8)
        recorder.waitFor("playing") { recorder.reachedState(.playing)($0) }
        let finished = DispatchSemaphore(value: 0)
        let racer = Thread { for _ in 0..<200 { _ = player.refreshStatistics() }; finished.signal() }
        racer.start()
        player.shutdown()
        XCTAssertEqual(finished.wait(timeout: .now() + 5), .success, "refreshStatistics racing shutdown returned")
        _ = player.refreshStatistics()
        XCTAssertEqual(player.state, .idle)
    }

    func testCreatePlayShutdownCyclesLeaveNoThreadsBehind() {
        func cycle() {
            let recorder = EventRecorder()
            let player = Player.forTesting(recorder, sync: false)
            player.load(TestMedia.short)
            recorder.waitFor("EOS") { $0.contains(where: \.isEndOfStream) }
            player.shutdown()
        }
        for _ in 0..<5 { cycle() } // warm up GStreamer's own thread pools and registry
        let baseline = ProcessProbe.current.threadCount ?? -1
        for _ in 0..<50 { cycle() }
        var after = ProcessProbe.current.threadCount ?? -1
        _ = eventually { after = ProcessProbe.current.threadCount ?? -1; return after <= baseline + 2 }
        XCTAssertLessThanOrEqual(after, baseline + 2, "threads before \(baseline), after 50 cycles \(after)")
    }

    func testShutdownIsIdempotentAndCommandsAfterItAreIgnored() {
        let recorder = EventRecorder()
        let player = Player.forTesting(recorder)
        player.load(TestMedia.vp8)
        recorder.waitFor("playing") { recorder.reachedState(.playing)($0) }
        player.shutdown()
        player.shutdown()
        recorder.assertDeliveredOnLoopThread()
        // Every event came from the loop thread, and shutdown joined it: nothing can come later.
        let loop = recorder.loopThreadID.map(String.init) ?? "?"
        XCTAssertFalse(ProcessProbe.current.threadIDs?.contains(loop) ?? true, "the loop thread \(loop) ended")
        let count = recorder.count
        player.play(); player.seek(to: .zero); player.load(TestMedia.h264)
        XCTAssertEqual(recorder.count, count)
        XCTAssertEqual(player.state, .idle)
        XCTAssertEqual(Array(recorder.states().suffix(2)), [.stopping, .idle])
    }

    func testDelegateMayCallBackIntoThePlayer() {
        final class Reentrant: PlayerDelegate, @unchecked Sendable {
            let recorder = EventRecorder()
            var seeked = false // loop thread only
            func player(_ player: Player, didReceive event: PlayerEvent) {
                recorder.player(player, didReceive: event)
                if case .stateChanged(_, .ready) = event, !seeked {
                    seeked = true
                    player.seek(to: MediaTime(seconds: 3))
                    _ = player.snapshot
                    _ = player.refreshStatistics() // on the loop thread: answers from the snapshot, never waits
                }
                if case .endOfStream = event { player.stop() }
            }
        }
        let delegate = Reentrant()
        let player = Player.forTesting(delegate.recorder)
        player.delegate = delegate
        defer { player.shutdown() }
        player.load(TestMedia.vp8)
        delegate.recorder.waitFor("idle after EOS") { events in
            events.contains(where: \.isEndOfStream) && events.last == .stateChanged(from: .stopping, to: .idle)
        }
        XCTAssertEqual(delegate.recorder.events.compactMap(\.seekDone).first?.seconds ?? 0, 3, accuracy: 0.1)
    }
}
