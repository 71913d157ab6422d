import Backend
import Foundation
import StreamingQoE
import TestSupport
import XCTest

/// A guard for the ABR: gstplay's ABR on the committed `step-down` trace, started
/// 26 s in (4 s at 3000 kbit/s, then 600 kbit/s, where only 240p fits), over the real ladder
/// through the trace-shaped test server, as HLS (`master.m3u8`, legacy `hlsdemux`) and as its
/// DASH rendition (`manifest.mpd`, legacy `dashdemux`). It leaves the top variants within a few
/// fragments of the step, and (DASH, where `fragment-size` counts the whole stream across
/// representations) does not climb back above what the link carries once down.
final class StepDownABRTests: XCTestCase {
    /// Fragments above 240p that may start after the step before the first 240p one.
    static let fragmentsAfterStep = 2
    /// Fragments watched after the first 240p one after the step (none may be above 240p).
    static let fragmentsWatchedAfterDown = 3

    /// One step-down run: the server's segment requests from the step on, the log for messages,
    /// and the player's stall figures.
    private struct Run {
        var after: [HTTPTestServer.HLSRequest]
        var log: String
        var switchedDown: Bool
    }

    func testStepDownSwitchesDownWithinAFewFragments() throws {
        let run = try stepDown(manifest: "/hls/vod/master.m3u8", watchAfterDown: 0)
        XCTAssertTrue(run.switchedDown, "only 240p fits 600 kbit/s")
        XCTAssertTrue(run.after.contains { $0.variant == "240p" }, "a 240p fragment after the step: \(run.log)")
        XCTAssertLessThanOrEqual(run.after.prefix { $0.variant != "240p" }.count, Self.fragmentsAfterStep,
                                 "fragments above 240p started after the step: \(run.log)")
    }

    /// The DASH case: on `dashdemux` gstplay could ask for 720p on a 600 kbit/s link. After
    /// the step only the fragment already decided on the 3000 kbit/s link may be 720p; the switch
    /// to 240p comes within ``fragmentsAfterStep`` fragments, and nothing above 240p (480p needs
    /// 1.04 Mb/s) is asked for afterwards.
    func testStepDownOverDASHSwitchesDownAndStaysDown() throws {
        let run = try stepDown(manifest: "/hls/vod/manifest.mpd", watchAfterDown: Self.fragmentsWatchedAfterDown)
        XCTAssertTrue(run.switchedDown, "only 240p fits 600 kbit/s")
        let late = run.after.prefix { $0.variant != "240p" }
        XCTAssertLessThanOrEqual(late.count, Self.fragmentsAfterStep, "fragments above 240p started after the step: \(run.log)")
        XCTAssertFalse(run.after.dropFirst().contains { $0.variant == "720p" }, "720p requested on a 600 kbit/s link: \(run.log)")
        let afterDown = run.after.drop { $0.variant != "240p" }
        XCTAssertGreaterThanOrEqual(afterDown.count, Self.fragmentsWatchedAfterDown, run.log)
        XCTAssertEqual(Set(afterDown.compactMap(\.variant)), ["240p"], "climbed back up on a 600 kbit/s link: \(run.log)")
    }

    /// Plays `manifest` over `step-down` from 26 s with today's default policy until a 240p
    /// fragment started after the step and `watchAfterDown` more fragments followed it (or timeouts).
    private func stepDown(manifest: String, watchAfterDown: Int) throws -> Run {
        let run = try TracedLadderPlayback(trace: "step-down", startingAt: 26, manifest: manifest)  // the trace drops at 30 s
        defer { run.stop() }
        let recorder = run.recorder
        recorder.waitFor("a switch up before the step", timeout: 10) { $0.contains { $0.switched?.reason == .bandwidthUp } }
        let stepAt = run.origin + run.trace.steps[0].seconds
        func after() -> [HTTPTestServer.HLSRequest] { run.segments(startingAt: stepAt) }
        recorder.waitFor("a 240p fragment after the step", timeout: 16) { _ in after().contains { $0.variant == "240p" } }
        let down = recorder.waitForValue("a switch down to 240p", timeout: 3) { $0.switched.flatMap { $0.reason == .bandwidthDown && $0.to.height == 240 ? $0 : nil } }
        if watchAfterDown > 0 {
            recorder.waitFor("\(watchAfterDown) fragments after the first 240p one", timeout: 10) { _ in
                after().drop { $0.variant != "240p" }.count > watchAfterDown
            }
        }
        let log = run.segmentLog(from: stepAt)
        print("StepDownABRTests \(manifest): segments (variant@s from the step):", log,
              "| stalls:", run.player.adaptiveInfo.stallCount, String(format: "%.2f s", run.player.adaptiveInfo.stalledSeconds),
              "| decisions (to, buffer s, estimate kbit/s, fragment s):", run.decisionLog)
        XCTAssertNil(recorder.events.lazy.compactMap(\.error).first)
        return Run(after: after(), log: log, switchedDown: down != nil)
    }
}
