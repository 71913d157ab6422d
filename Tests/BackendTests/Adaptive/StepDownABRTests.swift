import Backend
import Foundation
import StreamingQoE
import TestSupport
import XCTest

/// A guard for the ABR work of issue 26: today's ABR on the committed `step-down` trace, started
/// 24 s in (6 s at 3000 kbit/s, then 600 kbit/s, where only 240p fits), over the real HLS ladder
/// through the trace-shaped test server. It asserts only what the current policy already does,
/// so a new policy must keep it: it leaves the top variants within a few fragments of the step.
final class StepDownABRTests: XCTestCase {
    /// Fragments above 240p that may start after the step before the first 240p one.
    static let fragmentsAfterStep = 2

    func testStepDownSwitchesDownWithinAFewFragments() throws {
        let server = try HTTPTestServer(hls: try HLSFixture.ensure())
        defer { server.stop() }
        let trace = try HTTPTestServer.trace(named: "step-down")
        let skipped = 26.0, step = trace.steps[0].seconds  // the trace drops at 30 s
        let origin = try XCTUnwrap(server.shape(to: trace, rttMilliseconds: 20, startingAt: skipped))
        let recorder = EventRecorder()
        let player = Player.forAdaptiveTesting(recorder)
        defer { player.shutdown() }
        player.load(server.url("/hls/vod/master.m3u8"))
        recorder.waitFor("a switch up before the step", timeout: 10) { $0.contains { $0.switched?.reason == .bandwidthUp } }
        let stepAt = origin + step
        recorder.waitFor("a 240p fragment after the step", timeout: 16) { _ in
            self.server240p(server, after: stepAt)
        }
        let down = recorder.waitForValue("a switch down to 240p", timeout: 3) { $0.switched.flatMap { $0.reason == .bandwidthDown && $0.to.height == 240 ? $0 : nil } }
        XCTAssertNotNil(down, "only 240p fits 600 kbit/s")
        let after = server.segments().filter { ($0.start ?? 0) >= stepAt }
        let late = after.prefix { $0.variant != "240p" }
        let log = server.segments().map { "\($0.variant ?? "?")@\(String(format: "%.1f", ($0.start ?? 0) - stepAt))" }
        print("StepDownABRTests: segments (variant@s from the step):", log.joined(separator: " "),
              "| stalls:", player.adaptiveInfo.stallCount, String(format: "%.2f s", player.adaptiveInfo.stalledSeconds))
        XCTAssertTrue(after.contains { $0.variant == "240p" }, "a 240p fragment after the step: \(log)")
        XCTAssertLessThanOrEqual(late.count, Self.fragmentsAfterStep, "fragments above 240p started after the step: \(log)")
        XCTAssertNil(recorder.events.lazy.compactMap(\.error).first)
    }

    private func server240p(_ server: HTTPTestServer, after time: Double) -> Bool {
        server.segments().contains { ($0.start ?? 0) >= time && $0.variant == "240p" }
    }
}
