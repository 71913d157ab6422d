@testable import BackendCore
import Backend
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

/// A level below 100 % from a `GST_BUFFERING_DOWNLOAD` element is checked against
/// what the element answers to a buffering query now.
final class DownloadBufferingPolicyTests: XCTestCase {
    private let settled = BufferingPolicy.Probe(busy: false, complete: false)
    private let complete = BufferingPolicy.Probe(busy: false, complete: true)
    private let busy = BufferingPolicy.Probe(busy: true, complete: false)

    func testALateLowerLevelFromAnElementNoLongerBufferingCountsAsFull() {
        // The reported hang: 100 % acted on, then the stale 34 %: nothing to do.
        XCTAssertEqual(BufferingPolicy.decide(percent: 34, mode: .download, probe: settled, isLive: false,
                                              targetActive: true, targetPlaying: true, lastPercent: 100), .ignore)
        // The stale level handled first (the player holds at 34 %): it resumes instead.
        XCTAssertEqual(BufferingPolicy.decide(percent: 34, mode: .download, probe: settled, isLive: false,
                                              targetActive: true, targetPlaying: true, lastPercent: 34), .resume(play: true))
    }

    func testACompleteDownloadNeverPauses() {
        for percent in [0, 1, 34, 99] {
            XCTAssertEqual(BufferingPolicy.decide(percent: percent, mode: .download, probe: complete, isLive: false,
                                                  targetActive: true, targetPlaying: false, lastPercent: nil), .resume(play: false))
        }
        // Complete wins even if the element still calls itself busy.
        XCTAssertEqual(BufferingPolicy.decide(percent: 5, mode: .download, probe: BufferingPolicy.Probe(busy: true, complete: true),
                                              isLive: false, targetActive: true, targetPlaying: true, lastPercent: 100), .ignore)
    }

    func testAnElementStillBufferingIsBelieved() {
        XCTAssertEqual(BufferingPolicy.decide(percent: 34, mode: .download, probe: busy, isLive: false,
                                              targetActive: true, targetPlaying: true, lastPercent: 100), .pause(percent: 34))
    }

    func testWithoutAnAnswerOrOutsideDownloadModeTheMessageDecides() {
        XCTAssertEqual(BufferingPolicy.decide(percent: 34, mode: .download, probe: nil, isLive: false,
                                              targetActive: true, targetPlaying: true, lastPercent: 100), .pause(percent: 34))
        // Stream-mode queues (queue2, multiqueue, the backend's own stall watch) are not second-guessed.
        XCTAssertEqual(BufferingPolicy.decide(percent: 34, mode: .stream, probe: settled, isLive: false,
                                              targetActive: true, targetPlaying: true, lastPercent: 100), .pause(percent: 34))
    }

    func testLiveAndNoTargetStillIgnoreEverything() {
        XCTAssertEqual(BufferingPolicy.decide(percent: 34, mode: .download, probe: complete, isLive: true,
                                              targetActive: true, targetPlaying: true, lastPercent: nil), .ignore)
        XCTAssertEqual(BufferingPolicy.decide(percent: 34, mode: .download, probe: complete, isLive: false,
                                              targetActive: false, targetPlaying: false, lastPercent: nil), .ignore)
    }

    func testTheRecheckResumesOnlyWhenHoldingAndTheDataIsThere() {
        XCTAssertEqual(BufferingPolicy.recheck(holding: true, mode: .download, probe: settled, targetPlaying: true), .resume(play: true))
        XCTAssertEqual(BufferingPolicy.recheck(holding: true, mode: .download, probe: complete, targetPlaying: false), .resume(play: false))
        XCTAssertEqual(BufferingPolicy.recheck(holding: true, mode: .download, probe: busy, targetPlaying: true), .ignore)
        XCTAssertEqual(BufferingPolicy.recheck(holding: false, mode: .download, probe: settled, targetPlaying: true), .ignore)
        XCTAssertEqual(BufferingPolicy.recheck(holding: true, mode: .download, probe: nil, targetPlaying: true), .ignore)
        XCTAssertEqual(BufferingPolicy.recheck(holding: true, mode: .stream, probe: settled, targetPlaying: true), .ignore)
    }
}
