import StreamingQoE
import XCTest

/// The QoE scorer: the MPC/Pensieve linear QoE and the figures around it, on
/// sessions worked out by hand.
final class QoEScoreTests: XCTestCase {
    private func session(_ kbps: [Double], seconds: Double = 2, stalls: [(Double, Double)] = [], startup: Double? = 0.8) -> PlayedSession {
        PlayedSession(fragments: kbps.map { .init(seconds: seconds, kbps: $0) },
                      stalls: stalls.map { .init(start: $0.0, end: $0.1) }, startupSeconds: startup)
    }

    func testASmoothSessionScoresItsBitrateSum() {
        let score = QoEScore(session([1000, 1000, 1000, 1000]))
        XCTAssertEqual(score.averageMbps, 1, accuracy: 1e-9)
        XCTAssertEqual(score.bitrateSum, 4, accuracy: 1e-9)
        XCTAssertEqual(score.switchCount, 0)
        XCTAssertEqual(score.stallCount, 0)
        XCTAssertEqual(score.qoe, 4, accuracy: 1e-9)
        XCTAssertEqual(score.qoePerFragment, 1, accuracy: 1e-9)
        XCTAssertEqual(score.startupSeconds, 0.8)
    }

    func testSwitchesAndStallsArePenalisedWithTheStatedConstants() {
        XCTAssertEqual(QoEScore.rebufferPenalty, 4.3)
        XCTAssertEqual(QoEScore.smoothnessPenalty, 1)
        // 0.35 → 2.5 (up 2.15) → 2.5 → 1.0 (down 1.5) → 0.35 (down 0.65); stalls 1.2 s + 0.3 s.
        let score = QoEScore(session([350, 2500, 2500, 1000, 350], stalls: [(10, 11.2), (14, 14.3)]))
        XCTAssertEqual(score.switchCount, 3)
        XCTAssertEqual(score.upSwitches, 1)
        XCTAssertEqual(score.downSwitches, 2)
        XCTAssertEqual(score.switchSizesMbps.count, 3)
        for (got, want) in zip(score.switchSizesMbps, [2.15, 1.5, 0.65]) { XCTAssertEqual(got, want, accuracy: 1e-9) }
        XCTAssertEqual(score.stallCount, 2)
        XCTAssertEqual(score.stallSeconds, 1.5, accuracy: 1e-9)
        XCTAssertEqual(score.bitrateSum, 6.7, accuracy: 1e-9)
        XCTAssertEqual(score.rebufferPenaltyTotal, 6.45, accuracy: 1e-9)
        XCTAssertEqual(score.smoothnessPenaltyTotal, 4.3, accuracy: 1e-9)
        XCTAssertEqual(score.qoe, 6.7 - 6.45 - 4.3, accuracy: 1e-9)
        XCTAssertEqual(score.averageMbps, 6.7 / 5, accuracy: 1e-9)
    }

    func testTheAverageIsWeightedByFragmentDuration() {
        let played = PlayedSession(fragments: [.init(seconds: 3, kbps: 2000), .init(seconds: 1, kbps: 400)], stalls: [], startupSeconds: nil)
        let score = QoEScore(played)
        XCTAssertEqual(score.averageMbps, (3 * 2 + 1 * 0.4) / 4, accuracy: 1e-9)
        XCTAssertNil(score.startupSeconds)
    }

    func testAnEmptySessionIsAllZeroAndABackwardsStallCountsNothing() {
        let score = QoEScore(session([], stalls: [(5, 4)], startup: nil))
        XCTAssertEqual(score.averageMbps, 0)
        XCTAssertEqual(score.qoe, 0)
        XCTAssertEqual(score.qoePerFragment, 0)
        XCTAssertEqual(score.stallCount, 1)
        XCTAssertEqual(score.stallSeconds, 0)
    }
}
