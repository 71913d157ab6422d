import Backend
import Foundation
import StreamingQoE
import TestSupport
import XCTest

/// The buffer-aware rule's climb (ADR-003 "the climb") on the committed `step-up`
/// trace started 18 s in (12 s at 600 kbit/s, where only 240p fits, then 3000 kbit/s, where 480p
/// fits), over the real HLS ladder through the trace-shaped test server. With the buffer deep
/// (6–8 s) when the link rises, the switch up to 480p comes on the recent fragments: at most
/// ``fragmentsAfterStep`` 240p fragments start after the step (the five-fragment window alone
/// needed four, H(600, 3000, 3000, 3000, 3000) being the first to fit 480p), without a stall.
final class StepUpABRTests: XCTestCase {
    /// 240p fragments that may start after the step before the first 480p one.
    static let fragmentsAfterStep = 2

    func testAStepUpOverADeepBufferSwitchesUpWithinTwoFragments() throws {
        let run = try TracedLadderPlayback(trace: "step-up", startingAt: 18)  // the trace rises at 30 s
        defer { run.stop() }
        let stepAt = run.origin + run.trace.steps[0].seconds
        func after() -> [HTTPTestServer.HLSRequest] { run.segments(startingAt: stepAt) }
        run.recorder.waitFor("a 480p fragment after the step", timeout: 30) { _ in after().contains { $0.variant == "480p" } }
        let log = run.segmentLog(from: stepAt)
        let info = run.player.adaptiveInfo
        print("StepUpABRTests: segments (variant@s from the step):", log, "| stalls:", info.stallCount,
              "| decisions (to, buffer s, estimate kbit/s, fragment s):", run.decisionLog)
        XCTAssertFalse(run.server.segments().contains { ($0.start ?? .infinity) < stepAt && $0.variant != "240p" },
                       "above 240p before the step: \(log)")
        let late = after().prefix { $0.variant == "240p" }
        XCTAssertTrue(after().contains { $0.variant == "480p" }, "no 480p fragment after the step: \(log)")
        XCTAssertLessThanOrEqual(late.count, Self.fragmentsAfterStep, "240p fragments started after the step: \(log)")
        let up = try XCTUnwrap(info.decisions.last { $0.reason == .bandwidthUp }, "the switch up is among the decisions")
        XCTAssertGreaterThanOrEqual(try XCTUnwrap(up.bufferSeconds), BufferAwareRule.safetySeconds, "switched up on a shallow buffer")
        XCTAssertEqual(info.stallCount, 0, "a stall before the switch up: \(log)")
        XCTAssertNil(run.recorder.events.lazy.compactMap(\.error).first)
    }
}
