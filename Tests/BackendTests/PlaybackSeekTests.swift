import Backend
import Foundation
import TestSupport
import XCTest

/// Seeks on real pipelines: before preroll, by fraction, in storms, while paused and after the end.
final class PlaybackSeekTests: XCTestCase {
    func testSeekRequestedBeforePrerollLandsAfterIt() {
        let recorder = EventRecorder()
        let player = Player.forTesting(recorder)
        defer { player.shutdown() }
        player.load(TestMedia.h264)
        player.seek(to: MediaTime(seconds: 6))
        let landed = recorder.waitForValue("seek done") { $0.seekDone }
        XCTAssertEqual(landed?.seconds ?? 0, 6, accuracy: 0.1)
        // The seek ran after preroll: ready precedes seeking, and nothing was played from 0 first.
        let states = recorder.states()
        XCTAssertEqual(Array(states.prefix(3)), [.opening, .ready, .seeking])
        recorder.waitFor("playing after the seek") { recorder.reachedState(.playing)($0) }
        let firstTick = recorder.waitForValue("a tick after playing", after: recorder.count) { $0.position }
        XCTAssertGreaterThanOrEqual(firstTick?.seconds ?? 0, 5.9)
    }

    func testFractionSeekBeforePrerollWaitsForTheDuration() {
        let recorder = EventRecorder()
        let player = Player.forTesting(recorder)
        defer { player.shutdown() }
        player.load(TestMedia.h264)
        player.seek(toFraction: 0.5)
        let landed = recorder.waitForValue("seek done") { $0.seekDone }
        XCTAssertEqual(landed?.seconds ?? 0, 5.01, accuracy: 0.1)
    }

    func testSeekStormIsThrottledAndTheLastRequestWins() {
        let recorder = EventRecorder()
        let player = Player.forTesting(recorder)
        defer { player.shutdown() }
        player.load(TestMedia.h264)
        recorder.waitFor("playing") { recorder.reachedState(.playing)($0) }
        let before = player.refreshStatistics().seekCount
        let start = Date()
        for i in 0..<20 { player.seek(to: MediaTime(seconds: 1 + Double(i) * 0.3)) }
        XCTAssertLessThan(Date().timeIntervalSince(start), 1, "seek calls do not wait for the pipeline")
        let last = 1 + 19 * 0.3
        recorder.waitFor("the last seek to land") { events in events.compactMap(\.seekDone).contains { abs($0.seconds - last) < 0.1 } }
        // Nothing else may run after the throttle window (500 ms): three more ticks (250 ms
        // apart, never early) outlast it.
        let mark = recorder.count
        recorder.waitFor("three ticks after landing") { $0.dropFirst(mark).compactMap(\.position).count >= 3 }
        let executed = player.refreshStatistics().seekCount - before
        XCTAssertLessThanOrEqual(executed, 2)
        XCTAssertGreaterThanOrEqual(executed, 1)
        XCTAssertEqual(recorder.events.compactMap(\.seekDone).last?.seconds ?? 0, last, accuracy: 0.1)
    }

    func testSeekWhilePausedStaysPausedAndReportsLandedPosition() {
        let recorder = EventRecorder()
        let player = Player.forTesting(recorder)
        defer { player.shutdown() }
        player.load(TestMedia.vp8)
        recorder.waitFor("playing") { recorder.reachedState(.playing)($0) }
        player.pause()
        recorder.waitFor("paused") { recorder.reachedState(.paused)($0) }
        let mark = recorder.count
        player.seek(to: MediaTime(seconds: 2.5))
        let landed = recorder.waitForValue("seek done", after: mark) { $0.seekDone }
        XCTAssertEqual(landed?.seconds ?? 0, 2.5, accuracy: 0.05)
        recorder.waitFor("back to paused") { events in
            events.dropFirst(mark).contains { if case .stateChanged(.seeking, .paused) = $0 { return true } else { return false } }
        }
        XCTAssertEqual(player.state, .paused)
        player.play()
        recorder.waitFor("EOS") { $0.contains(where: \.isEndOfStream) }
        let states = recorder.states()
        XCTAssertEqual(states, [.opening, .ready, .playing, .paused, .seeking, .paused, .playing, .ended])
    }

    func testEndedThenSeekBackPlaysAgain() {
        let recorder = EventRecorder()
        let player = Player.forTesting(recorder)
        defer { player.shutdown() }
        player.load(TestMedia.short)
        recorder.waitFor("EOS") { $0.contains(where: \.isEndOfStream) }
        player.seek(to: .zero)
        recorder.waitFor("second EOS", timeout: 10) { $0.filter(\.isEndOfStream).count == 2 }
        XCTAssertEqual(Array(recorder.states().suffix(3)), [.seeking, .playing, .ended])
    }
}
