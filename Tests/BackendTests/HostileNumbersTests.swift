@testable import BackendCore
import Backend
import Foundation
import TestSupport
import XCTest

/// The Backend's side of docs/RELIABILITY.md "Hostile numbers and bursts": the one checked
/// conversion of outside numbers (``WholeNumber``), the one rate rule (``PlaybackRate``), and a
/// seek that cannot land answering after ``PlayerConfiguration/seekLandingLimit``.
final class HostileNumbersTests: XCTestCase {
    func testWholeNumbersFromOutsideNeverTrap() {
        let extremes: [Double] = [1e19, -1e19, 9.223372036854775807e18, -9.223372036854775808e18, 1e300, -1e300, .nan,
                                  .infinity, -.infinity, 1.5, -0.5, 5e-324, -0.0, 0, 42, 0x1p63, -0x1p63]
        for value in extremes {
            let exact: Int? = WholeNumber.exact(value)
            if let exact { XCTAssertEqual(Double(exact), value, "\(value)") }
            _ = WholeNumber.exact(value, in: Int32(0)...255)
            let clamped: Int = WholeNumber.clamped(value, to: 0...Int.max)
            XCTAssertGreaterThanOrEqual(clamped, 0, "\(value)")
            let wide: UInt64 = WholeNumber.clamped(value)
            XCTAssertTrue(value.isNaN ? wide == 0 : true, "\(value)")
        }
        XCTAssertNil(WholeNumber.exact(1e19) as Int?)
        XCTAssertNil(WholeNumber.exact(-1e19) as Int64?)
        XCTAssertEqual(WholeNumber.exact(-0x1p63) as Int64?, .min)
        XCTAssertNil(WholeNumber.exact(0x1p63) as Int64?, "2^63 is one beyond Int64")
        XCTAssertNil(WholeNumber.exact(1.5) as Int?)
        XCTAssertEqual(WholeNumber.exact(255.0, in: Int32(0)...255), 255)
        XCTAssertNil(WholeNumber.exact(256.0, in: Int32(0)...255))
        XCTAssertEqual(WholeNumber.clamped(1e19, to: 0...99), 99)
        XCTAssertEqual(WholeNumber.clamped(-1e19, to: 0...99), 0)
        XCTAssertEqual(WholeNumber.clamped(.nan, to: 0...99), 0)
        XCTAssertEqual(WholeNumber.clamped(.nan, to: 5...9), 5)
        XCTAssertEqual(WholeNumber.clamped(-7.9, to: -10...10), -7)
    }

    func testTheRateRuleRefusesRatesTooCloseToZero() {
        let range = PlayerConfiguration().rateRange
        for tiny in [5e-324, -5e-324, 1e-300, 1e-10, 0.009, -0.0099] {
            XCTAssertEqual(PlaybackRate.problem(with: tiny, allowed: range),
                           "rate \(tiny) is too close to 0 (the slowest rate is 0.01 either way)")
        }
        for bad in [0.0, -0.0, 3, -1.5, .nan, .infinity] {
            XCTAssertEqual(PlaybackRate.problem(with: bad, allowed: range)?.contains("outside the allowed range"), true, "\(bad)")
        }
        for good in [0.01, -0.01, 0.5, 1, 2, -1] { XCTAssertNil(PlaybackRate.problem(with: good, allowed: range), "\(good)") }
        XCTAssertTrue(PlaybackRate.playable(range) == (-1, 2), "MinimumRate/MaximumRate")
        XCTAssertTrue(PlaybackRate.playable(0.001...2) == (0.01, 2), "a lower bound inside the hole moves out to 0.01")
        XCTAssertTrue(PlaybackRate.playable(-1...0.005) == (-1, -0.01))

        let recorder = EventRecorder()
        let player = Player.forTesting(recorder)
        defer { player.shutdown() }
        for tiny in [5e-324, 1e-300, -1e-10] {
            XCTAssertThrowsError(try player.setRate(tiny)) { XCTAssertEqual(($0 as? PlayerError)?.kind, .invalidArgument) }
        }
        XCTAssertNoThrow(try player.setRate(0.01))
        recorder.waitFor("rate event") { $0.contains(.rateChanged(0.01)) }
        XCTAssertEqual(recorder.events.filter { if case .rateChanged = $0 { return true } else { return false } }.count, 1,
                       "only the allowed rate was applied")
    }

    /// Forward play after backwards play runs to the end: the forward seek sets the segment's
    /// stop to none. It kept the backwards segment's stop (where backwards play began), so the
    /// clip ended there (EOS at 8.4 s of 10 s here), and after `rate -0.01` the forward seek
    /// failed GStreamer's `start <= stop` assertion.
    func testForwardPlayAfterBackwardsPlayRunsToTheEnd() throws {
        let recorder = EventRecorder()
        let player = Player.forTesting(recorder)
        defer { player.shutdown() }
        player.load(TestMedia.h264)
        recorder.waitFor("playing") { recorder.reachedState(.playing)($0) }
        var mark = recorder.count
        player.seek(to: MediaTime(seconds: 8.5))
        _ = recorder.waitForValue("seek done", after: mark) { $0.seekDone }
        mark = recorder.count
        try player.setRate(-1)
        _ = recorder.waitForValue("backwards seek done", after: mark) { $0.seekDone }
        mark = recorder.count
        try player.setRate(1)
        _ = recorder.waitForValue("forward seek done", after: mark) { $0.seekDone }
        let end = recorder.waitForValue("EOS", timeout: 20, after: mark) { event -> MediaTime? in
            if case .endOfStream(let position) = event { return position } else { return nil }
        }
        XCTAssertEqual(end?.seconds ?? 0, 10.0, accuracy: 0.1, "forward play ends at the clip's end, not where backwards play began")
    }

    /// A seek into a stream whose server goes silent (network timeout one hour) cannot land:
    /// ``Player/seekAsync(to:mode:)`` waited for ever (and the CLI's dispatcher behind it); now it
    /// throws after ``PlayerConfiguration/seekLandingLimit``, and the loop thread goes on answering.
    /// (The way there first reported, `rate 0.0000000001` then `seek 2`, crashes GStreamer's
    /// threads when the rate is forced below the rule on the loop thread: SIGSEGV in multiqueue.)
    func testASeekThatCannotLandAnswersAfterTheLimit() async throws {
        let server = try HTTPTestServer()
        defer { server.stop() }
        let size = (try FileManager.default.attributesOfItem(atPath: TestMedia.h264)[.size] as? Int) ?? 0
        let recorder = EventRecorder()
        let player = Player.forTesting(recorder) {
            $0.seekLandingLimit = .seconds(3)
            $0.networkTimeout = .seconds(3600)
        }
        defer { player.shutdown() }
        player.load(server.url("/stall/h264-aac-10s.mp4?after=\(size / 3)"))
        recorder.waitFor("playing", timeout: 30) { recorder.reachedState(.playing)($0) }
        let asked = Date()
        do {
            let landed = try await player.seekAsync(to: MediaTime(seconds: 9))
            XCTFail("the seek landed at \(landed) though the server sends nothing past a third of the file")
        } catch {
            XCTAssertEqual(error.message, "not landed within 3 s (the seek goes on; its seek-done event follows when it lands)")
            XCTAssertGreaterThanOrEqual(Date().timeIntervalSince(asked), 2.5, "not before the limit")
        }
        _ = await player.refreshStatistics()   // the loop thread answers
    }
}
