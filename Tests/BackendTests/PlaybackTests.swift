import Backend
import Foundation
import TestSupport
import XCTest

/// The engine on real `playbin` pipelines with real-time fake sinks: states, events, ticks and durations.
final class PlaybackTests: XCTestCase {
    func testNormalPlayStateSequenceAndFinalPosition() {
        let recorder = EventRecorder()
        let player = Player.forTesting(recorder)
        defer { player.shutdown() }
        player.load(TestMedia.vp8)
        recorder.waitFor("EOS") { $0.contains(where: \.isEndOfStream) }
        XCTAssertEqual(recorder.states(), [.opening, .ready, .playing, .ended])
        guard case .endOfStream(let final)? = recorder.events.last(where: \.isEndOfStream) else { return XCTFail("no EOS") }
        XCTAssertEqual(final.seconds, 4.0, accuracy: 0.05, "final position at EOS")
        XCTAssertEqual(player.state, .ended)
        XCTAssertEqual(player.statistics.rejectedStateTransitions, 0)
        XCTAssertTrue(recorder.events.contains(.initialized))
    }

    func testAsyncStreamCarriesTheEventsAndEndsAtShutdown() async {
        let recorder = EventRecorder()
        let player = Player.forTesting(recorder, sync: false)
        let stream = player.events
        player.load(TestMedia.short)
        var seen: [PlayerEvent] = []
        for await event in stream {
            seen.append(event)
            if event.isEndOfStream { player.shutdown() }
        }
        // The loop ended: shutdown finished the stream.
        XCTAssertTrue(seen.contains(where: \.isEndOfStream))
        XCTAssertEqual(seen.filter { if case .stateChanged = $0 { return true } else { return false } }.suffix(2),
                       [.stateChanged(from: .ended, to: .stopping), .stateChanged(from: .stopping, to: .idle)])
        let delegateStates = recorder.events.filter { if case .stateChanged = $0 { return true } else { return false } }
        let streamStates = seen.filter { if case .stateChanged = $0 { return true } else { return false } }
        XCTAssertEqual(streamStates, delegateStates, "stream and delegate see the same events")
        // A stream asked for after shutdown is finished at once.
        var late = 0
        for await _ in player.events { late += 1 }
        XCTAssertEqual(late, 0)
    }

    func testPositionTicksFourTimesASecondDuringRealTimePlay() {
        let recorder = EventRecorder()
        let player = Player.forTesting(recorder)
        defer { player.shutdown() }
        player.load(TestMedia.h264)
        recorder.waitFor("playing") { recorder.reachedState(.playing)($0) }
        let mark = recorder.count
        recorder.waitFor("nine ticks") { $0.dropFirst(mark).compactMap(\.position).count >= 9 }
        let ticks = recorder.all.dropFirst(mark).filter { $0.event.position != nil }.prefix(9)
        // A loaded machine delays ticks but cannot make them early or merge them: 8 gaps, none
        // much shorter than the interval, and on average neither a storm nor a stall.
        let gaps = zip(ticks.dropFirst(), ticks).map { ($0.at - $1.at) * 1000 }
        XCTAssertGreaterThan(gaps.min() ?? 0, 150, "no tick fires early or twice: \(gaps)")
        XCTAssertEqual(gaps.reduce(0, +) / Double(gaps.count), 250, accuracy: 150, "mean tick interval: \(gaps)")
        let positions = ticks.compactMap(\.event.position)
        XCTAssertEqual(positions, positions.sorted(), "positions move forward")
        XCTAssertEqual(Set(positions).count, positions.count, "every tick reports a new position")
        recorder.assertDeliveredOnLoopThread()
    }

    func testDurationIsReportedWithinFiftyMilliseconds() {
        for (file, expected) in [(TestMedia.h264, 10.0), (TestMedia.vp8, 4.0), (TestMedia.theora, 4.0), (TestMedia.audioOnly, 4.0)] {
            let recorder = EventRecorder()
            let player = Player.forTesting(recorder) { $0.autoplay = false }
            player.load(file)
            let duration = recorder.waitForValue("duration of \(file)") { event -> MediaTime? in
                if case .durationChanged(let d?) = event { return d } else { return nil }
            }
            XCTAssertEqual(duration?.seconds ?? 0, expected, accuracy: 0.05, file)
            XCTAssertEqual(player.duration, duration)
            player.shutdown()
        }
    }

    func testDisabledVideoStillPlaysAudioHeadless() {
        let recorder = EventRecorder()
        let player = Player.forTesting(recorder, sync: false) { $0.videoSink = .disabled }
        defer { player.shutdown() }
        player.load(TestMedia.h264)
        recorder.waitFor("EOS") { $0.contains(where: \.isEndOfStream) }
        XCTAssertNil(player.mediaSize)
        XCTAssertNil(recorder.events.lazy.compactMap(\.error).first)
    }
}
