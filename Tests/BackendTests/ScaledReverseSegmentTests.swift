@testable import BackendCore
import TestSupport
import XCTest

/// The correction of the audio sink's position when `scaletempo` plays media backwards: the rule
/// (pure), and the position a player reports on a real pipeline.
final class ScaledReverseSegmentTests: XCTestCase {
    private let second: UInt64 = 1_000_000_000

    func testHalfSpeedBackwardsRunsAheadByHalfTheScaledSpan() {
        // A reverse seek from 6 s at rate -0.5: scaletempo's output segment stops at 12 s.
        XCTAssertEqual(ScaledReverseSegment.excess(start: 0, stop: 12 * second, rate: 1, appliedRate: -0.5), Int64(6 * second))
    }

    func testFasterBackwardsCountsTheOtherWay() {
        // At rate -2 the output span is half the stream span: the answer falls short by it.
        XCTAssertEqual(ScaledReverseSegment.excess(start: second, stop: 4 * second, rate: 1, appliedRate: -2), -Int64(3 * second))
    }

    func testSegmentsTheSinkCountsRightNeedNoCorrection() {
        XCTAssertNil(ScaledReverseSegment.excess(start: 0, stop: 12 * second, rate: 1, appliedRate: -1), "rate -1")
        XCTAssertNil(ScaledReverseSegment.excess(start: 0, stop: 12 * second, rate: 1, appliedRate: 2), "forward through scaletempo")
        XCTAssertNil(ScaledReverseSegment.excess(start: 0, stop: 6 * second, rate: -0.5, appliedRate: 1), "backwards without scaletempo")
        XCTAssertNil(ScaledReverseSegment.excess(start: 0, stop: UInt64.max, rate: 1, appliedRate: -0.5), "no stop")
        XCTAssertNil(ScaledReverseSegment.excess(start: 5 * second, stop: 5 * second, rate: 1, appliedRate: -0.5), "empty span")
        XCTAssertNil(ScaledReverseSegment.excess(start: 0, stop: 12 * second, rate: 1, appliedRate: -.infinity), "not finite")
    }

    /// Backwards at half speed the audio goes through `scaletempo`, whose segment made the audio
    /// sink (and playbin) answer twice the true position: 10.7 s two seconds after a seek to 6 s.
    func testHalfSpeedBackwardsWithAudioReportsTheTruePosition() throws {
        let recorder = EventRecorder()
        let player = Player.forTesting(recorder) { $0.autoplay = false }
        defer { player.shutdown() }
        player.load(TestMedia.h264)
        recorder.waitFor("ready") { recorder.reachedState(.ready)($0) }
        player.seek(to: MediaTime(seconds: 6))
        _ = recorder.waitForValue("seek done") { $0.seekDone }
        try player.setRate(-0.5)
        recorder.waitFor("rate event") { $0.contains(.rateChanged(-0.5)) }
        player.play()
        let mark = recorder.count
        recorder.waitFor("three ticks while playing backwards", timeout: 10) { events in
            events.dropFirst(mark).compactMap(\.position).filter { $0 > .zero }.count >= 3
        }
        let ticks = recorder.events.dropFirst(mark).compactMap(\.position).filter { $0 > .zero }
        for tick in ticks { XCTAssertLessThanOrEqual(tick.seconds, 6.3, "a position after a seek to 6 s, going backwards: \(ticks)") }
        let now = try XCTUnwrap(player.position)
        XCTAssertLessThanOrEqual(now.seconds, 6.3)
        XCTAssertGreaterThan(now.seconds, 1.0, "half speed backwards from 6 s cannot be near the start yet")
    }
}
