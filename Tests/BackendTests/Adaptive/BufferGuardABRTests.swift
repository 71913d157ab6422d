import Backend
import Foundation
import StreamingQoE
import TestSupport
import XCTest

/// The ABR's ordering property on a real pipeline: no switch up while the buffer is under the
/// safety level. The `steady-high` trace (6000 kbit/s) from its start, over the real HLS ladder
/// through the trace-shaped server: every variant fits the link, so only the buffer can hold a
/// switch up back. Each decision carries the buffer level it was made on (`AdaptiveInfo.decisions`,
/// read on the demuxer's thread as the fragment finished).
final class BufferGuardABRTests: XCTestCase {
    func testNoSwitchUpWhileTheBufferIsUnderTheSafetyLevel() throws {
        let run = try TracedLadderPlayback(trace: "steady-high", startingAt: 0)
        defer { run.stop() }
        let recorder = run.recorder, player = run.player
        let top = recorder.waitForValue("720p", timeout: 12) { $0.switched.flatMap { $0.to.height == 720 ? $0 : nil } }
        XCTAssertEqual(top?.reason, .bandwidthUp, "6000 kbit/s sustains 720p")
        let info = player.adaptiveInfo
        let ups = info.decisions.filter { $0.reason == .bandwidthUp }
        print("BufferGuardABRTests: decisions:", info.decisions.map {
            "\($0.from.map(String.init) ?? "-")→\($0.to) \($0.reason) buffer \($0.bufferSeconds.map { String(format: "%.2f", $0) } ?? "-") s, "
                + "estimate \($0.estimate.map { String(format: "%.0f", $0 / 1000) } ?? "-") kbit/s"
        })
        XCTAssertFalse(ups.isEmpty, "the switch up is among the decisions")
        for up in ups {
            let buffer = try XCTUnwrap(up.bufferSeconds, "the buffer level was read when deciding")
            let estimate = try XCTUnwrap(up.estimate)
            XCTAssertGreaterThanOrEqual(buffer, BufferAwareRule.safetySeconds, "switched up to \(up.to) at \(buffer) s of buffer")
            let after = BufferAwareRule.bufferAfterFragment(of: info.variants[up.to], bufferSeconds: buffer, estimate: estimate,
                                                            fragmentSeconds: up.fragmentSeconds)
            XCTAssertGreaterThanOrEqual(after, BufferAwareRule.safetySeconds, "the next fragment of \(up.to) leaves \(after) s")
        }
        // The switch's new decodebin group takes over when the old one has drained (a few seconds
        // on): no stall there either.
        XCTAssertTrue(recorder.staysFalse(for: 5) { $0.contains(where: \.isStallStart) }, "a stall after the switch up")
        XCTAssertNil(recorder.events.lazy.compactMap(\.error).first)
    }
}
