@testable import BackendCore
import Backend
import XCTest

/// The throttle as pure logic: one seek per interval and none over one in flight, latest wins,
/// ms timer rounded up.
final class SeekThrottleTests: XCTestCase {
    private let ms: UInt64 = 1_000_000
    private func seek(_ s: Double) -> SeekRequest { SeekRequest(position: MediaTime(seconds: s), mode: .accurate) }

    func testFirstSeekExecutesImmediately() {
        var throttle = SeekThrottle(intervalNanoseconds: 500 * ms)
        XCTAssertEqual(throttle.request(seek(1), now: 1_000 * ms), .execute(seek(1)))
    }

    func testSeeksWithinIntervalAreCoalescedAndLatestWins() {
        var throttle = SeekThrottle(intervalNanoseconds: 500 * ms)
        XCTAssertEqual(throttle.request(seek(1), now: 1_000 * ms), .execute(seek(1)))
        XCTAssertEqual(throttle.request(seek(2), now: 1_100 * ms), .armTimer(milliseconds: 400))
        XCTAssertEqual(throttle.request(seek(3), now: 1_200 * ms), .coalesced)
        XCTAssertEqual(throttle.request(seek(4), now: 1_300 * ms), .coalesced)
        XCTAssertEqual(throttle.timerFired(now: 1_500 * ms), .execute(seek(4)))
        XCTAssertNil(throttle.pending)
    }

    func testTimerFiringEarlyRearmsForTheRemainder() {
        var throttle = SeekThrottle(intervalNanoseconds: 500 * ms)
        _ = throttle.request(seek(1), now: 0)
        _ = throttle.request(seek(2), now: 100 * ms)
        XCTAssertEqual(throttle.timerFired(now: 499 * ms), .armTimer(milliseconds: 1))
        XCTAssertEqual(throttle.timerFired(now: 500 * ms), .execute(seek(2)))
    }

    func testTimerWithNothingPendingIsIdle() {
        var throttle = SeekThrottle(intervalNanoseconds: 500 * ms)
        XCTAssertEqual(throttle.timerFired(now: 0), .idle)
    }

    func testDelayIsRoundedUpToWholeMillisecondsNeverZero() {
        XCTAssertEqual(SeekThrottle.milliseconds(roundingUp: 1), 1)
        XCTAssertEqual(SeekThrottle.milliseconds(roundingUp: 1_000_001), 2)
        XCTAssertEqual(SeekThrottle.milliseconds(roundingUp: 0), 1)
        // GLib timers take milliseconds: 400 ms must not become 400 µs or 400 s.
        var throttle = SeekThrottle(intervalNanoseconds: 500 * ms)
        _ = throttle.request(seek(1), now: 0)
        XCTAssertEqual(throttle.request(seek(2), now: 100 * ms), .armTimer(milliseconds: 400))
    }

    func testAfterTheIntervalASeekRunsAtOnceAgain() {
        var throttle = SeekThrottle(intervalNanoseconds: 500 * ms)
        _ = throttle.request(seek(1), now: 0)
        XCTAssertEqual(throttle.request(seek(2), now: 600 * ms), .execute(seek(2)))
    }

    func testTwentyRequestsInOneHundredMillisecondsExecuteTwice() {
        var throttle = SeekThrottle(intervalNanoseconds: 500 * ms)
        var executed: [SeekRequest] = []
        for i in 0..<20 {
            if case .execute(let s) = throttle.request(seek(Double(i)), now: UInt64(i) * 5 * ms) { executed.append(s) }
        }
        if case .execute(let s) = throttle.timerFired(now: 500 * ms) { executed.append(s) }
        XCTAssertEqual(executed, [seek(0), seek(19)])
    }

    func testResetForgetsPendingAndHistory() {
        var throttle = SeekThrottle(intervalNanoseconds: 500 * ms)
        _ = throttle.request(seek(1), now: 0)
        _ = throttle.request(seek(2), now: 10 * ms)
        throttle.reset()
        XCTAssertEqual(throttle.request(seek(3), now: 20 * ms), .execute(seek(3)))
    }

    func testARequestWhileASeekIsInFlightWaitsForTheLandingEvenWithoutAnInterval() {
        var throttle = SeekThrottle(intervalNanoseconds: 0)
        XCTAssertEqual(throttle.request(seek(0.2), now: 0), .execute(seek(0.2)))
        // The fallback timer: the landing wait (2 s) minus the 3 ms since the first was sent.
        XCTAssertEqual(throttle.request(seek(3), now: 3 * ms, inFlightSince: 0), .armTimer(milliseconds: 1_997))
        XCTAssertEqual(throttle.request(seek(3.5), now: 4 * ms, inFlightSince: 0), .coalesced)
        XCTAssertEqual(throttle.landed(now: 9 * ms), .execute(seek(3.5)), "the latest request runs on the landing")
        XCTAssertEqual(throttle.timerFired(now: 2_000 * ms), .idle, "the fallback timer finds nothing left")
    }

    func testALandingInsideTheIntervalArmsTheTimerForTheRestOfIt() {
        var throttle = SeekThrottle(intervalNanoseconds: 500 * ms)
        _ = throttle.request(seek(1), now: 0)
        XCTAssertEqual(throttle.request(seek(2), now: 100 * ms, inFlightSince: 0), .armTimer(milliseconds: 1_900))
        XCTAssertEqual(throttle.landed(now: 200 * ms), .armTimer(milliseconds: 300), "the interval still applies")
        XCTAssertEqual(throttle.timerFired(now: 500 * ms), .execute(seek(2)))
    }

    func testASeekThatNeverLandsHoldsTheNextOneForTheLandingWaitOnly() {
        var throttle = SeekThrottle(intervalNanoseconds: 0, landingWaitNanoseconds: 1_000 * ms)
        _ = throttle.request(seek(1), now: 0)
        XCTAssertEqual(throttle.request(seek(2), now: 400 * ms, inFlightSince: 0), .armTimer(milliseconds: 600))
        XCTAssertEqual(throttle.timerFired(now: 999 * ms, inFlightSince: 0), .armTimer(milliseconds: 1))
        XCTAssertEqual(throttle.timerFired(now: 1_000 * ms, inFlightSince: 0), .execute(seek(2)))
    }

    func testALandingWithNothingHeldIsIdle() {
        var throttle = SeekThrottle(intervalNanoseconds: 500 * ms)
        _ = throttle.request(seek(1), now: 0)
        XCTAssertEqual(throttle.landed(now: 10 * ms), .idle)
    }
}
