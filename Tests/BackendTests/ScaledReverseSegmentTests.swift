@testable import BackendCore
import XCTest

/// The correction of the audio sink's position when `scaletempo` plays media backwards (pure).
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
}
