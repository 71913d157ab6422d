import Backend
import Foundation
import StreamingQoE
import TestSupport
import XCTest

/// The up-switch-then-stall case: on the `up-down-up` trace (2000 kbit/s for 30 s, then
/// 300, then 2000 again) over the real HLS ladder, the first switch up must not be followed by a
/// stall while the link is still at 2000 kbit/s. 720p (~2.4 Mb/s of media) does not fit there,
/// 480p does; the throughput rule took 720p on an over-estimate and stalled ~1.7 s.
final class UpSwitchStallABRTests: XCTestCase {
    /// Trace time watched: the 2000 kbit/s phase lasts 30 s; the stall came ~2–3 s in (when the
    /// switch's new decodebin group took over), 15 s covers the hand-over and several fragments after.
    static let watchedSeconds = 15.0

    func testNoStallAfterTheFirstSwitchUpAt2000kbits() throws {
        let run = try TracedLadderPlayback(trace: "up-down-up", startingAt: 0)
        defer { run.stop() }
        let shapedAt = Date()
        XCTAssertEqual(run.trace.kbps(at: 1), 2000)
        let recorder = run.recorder
        let up = recorder.waitForValue("a first switch up", timeout: 12) { $0.switched.flatMap { $0.reason == .bandwidthUp ? $0 : nil } }
        XCTAssertNotNil(up)
        let upAt = recorder.events.firstIndex { $0.switched?.reason == .bandwidthUp } ?? 0
        let left = Self.watchedSeconds - Date().timeIntervalSince(shapedAt)
        let smooth = recorder.staysFalse(for: max(0, left)) { $0.dropFirst(upAt).contains(where: \.isStallStart) }
        let info = run.player.adaptiveInfo
        let log = run.segmentLog(from: run.origin)
        let rates = info.downloads.map { String(format: "%.0f", ($0.bitsPerSecond ?? 0) / 1000) }
        print("UpSwitchStallABRTests: up to \(up?.to.label ?? "-") | segments (variant@trace s):", log,
              "| measured kbit/s:", rates.joined(separator: " "),
              "| stalls:", info.stallCount, String(format: "%.2f s", info.stalledSeconds),
              "| decisions (to, buffer s, estimate kbit/s, fragment s):", run.decisionLog)
        XCTAssertTrue(smooth, "a stall after the first switch up (to \(up?.to.label ?? "-")) at 2000 kbit/s: \(log)")
        XCTAssertNil(recorder.events.lazy.compactMap(\.error).first)
    }
}
