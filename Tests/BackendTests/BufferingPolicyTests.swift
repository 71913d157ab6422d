@testable import Backend
import XCTest

/// The seed's buffering rule as a pure function.
final class BufferingPolicyTests: XCTestCase {
    func testBelowHundredPausesWhenTargetIsActive() {
        XCTAssertEqual(BufferingPolicy.decide(percent: 40, isLive: false, targetActive: true, targetPlaying: true, lastPercent: nil), .pause(percent: 40))
        XCTAssertEqual(BufferingPolicy.decide(percent: 0, isLive: false, targetActive: true, targetPlaying: false, lastPercent: 10), .pause(percent: 0))
    }

    func testHundredRestoresTheTarget() {
        XCTAssertEqual(BufferingPolicy.decide(percent: 100, isLive: false, targetActive: true, targetPlaying: true, lastPercent: 80), .resume(play: true))
        XCTAssertEqual(BufferingPolicy.decide(percent: 100, isLive: false, targetActive: true, targetPlaying: false, lastPercent: 80), .resume(play: false))
    }

    func testLiveSourcesAreIgnored() {
        XCTAssertEqual(BufferingPolicy.decide(percent: 10, isLive: true, targetActive: true, targetPlaying: true, lastPercent: nil), .ignore)
    }

    func testRepeatedPercentagesAreDropped() {
        XCTAssertEqual(BufferingPolicy.decide(percent: 40, isLive: false, targetActive: true, targetPlaying: true, lastPercent: 40), .ignore)
    }

    func testNoTargetNoAction() {
        XCTAssertEqual(BufferingPolicy.decide(percent: 40, isLive: false, targetActive: false, targetPlaying: false, lastPercent: nil), .ignore)
    }

    func testOutOfRangeLevelsAreClamped() {
        XCTAssertEqual(BufferingPolicy.decide(percent: 140, isLive: false, targetActive: true, targetPlaying: true, lastPercent: nil), .resume(play: true))
        XCTAssertEqual(BufferingPolicy.decide(percent: -3, isLive: false, targetActive: true, targetPlaying: true, lastPercent: nil), .pause(percent: 0))
    }
}
