import Foundation
import TestSupport
import XCTest

/// Issue 22: subtitles drawn on the video by default when a window exists (external `.srt`, an
/// embedded text track), with the cue events still published; `v` hides them. Each check pauses,
/// seeks into a cue, and compares the bottom third of the paused frame with the same frame
/// without subtitles (same media time, so only the subtitle can differ).
final class SubtitleOverlayDisplayTests: XCTestCase {
    /// The bottom third of a 320×240 window.
    private let bottomThird = "320x80+0+160"
    /// The top two thirds (the picture, the fixture's burnt-in time, the OSD).
    private let topTwoThirds = "320x160+0+0"

    /// The "done means": `gstplay --sub-file subs.srt clip` under Xvfb shows the cue on
    /// the video, no option needed (the console is used only to pause on the cue).
    func testAnExternalSubtitleFileIsDrawnOnTheVideoWithNoOption() throws {
        let server = try XvfbServer(width: 800, height: 600)
        let gstplay = try GstplayProcess(["--sub-file", DisplayMedia.path("subtitles.srt"), DisplayMedia.h264],
                                         environment: server.environment()).started()
        defer { gstplay.send("quit"); _ = gstplay.waitForExit(timeout: 10) }
        let window = try X11Tools.waitForWindow(on: server) { $0.title == "h264-aac-10s.mp4" }
        gstplay.send("pause")
        gstplay.send("seek 1.5")                                  // "Second cue", 1–2 s
        let with = try PixelChecks.settledScreenshot(window.id, on: server, name: "subtitle-external-shown.png")
        gstplay.send("sub-visibility no")
        gstplay.send("seek 1.5")
        Thread.sleep(forTimeInterval: 0.3)                        // let the seek start before waiting for a still frame
        let without = try PixelChecks.settledScreenshot(window.id, on: server, name: "subtitle-external-hidden.png")
        try assertSubtitleDrawn(with: with, without: without)
    }

    /// An embedded text track (`with-subs.mkv`): its cues still arrive as `subtitle` events, the
    /// cue is drawn, and the `v` key typed into the window hides it.
    func testAnEmbeddedTrackIsDrawnCueEventsStillArriveAndVHidesIt() throws {
        let server = try XvfbServer(width: 800, height: 600)
        let gstplay = try GstplayProcess(["--json", DisplayMedia.path("with-subs.mkv")], environment: server.environment()).started()
        defer { gstplay.send("quit"); _ = gstplay.waitForExit(timeout: 10) }
        XCTAssertNotNil(gstplay.waitForJSON(timeout: 20) { $0["event"] as? String == "subtitle" && $0["text"] as? String == "First cue" },
                        "no cue event while subtitles are drawn: \(gstplay.stdout)")
        let window = try X11Tools.waitForWindow(on: server) { $0.title.hasPrefix("with-subs") || $0.title == "Subtitle" || $0.width == 320 }
        gstplay.send("pause")
        gstplay.send("seek 1.5")
        XCTAssertNotNil(gstplay.waitForJSON(timeout: 10) { $0["event"] as? String == "seek-done" })
        let with = try PixelChecks.settledScreenshot(window.id, on: server, name: "subtitle-embedded-shown.png")
        try X11Tools.type(["v"], into: window.id, on: server)
        XCTAssertTrue(gstplay.waitForLine(containing: "Subtitles hidden", timeout: 10), gstplay.stdout)
        gstplay.send("seek 1.5")
        XCTAssertNotNil(gstplay.waitForJSON(timeout: 10) { $0["event"] as? String == "seek-done" && ($0["position"] as? Double ?? 0) > 1 })
        Thread.sleep(forTimeInterval: 0.3)
        let without = try PixelChecks.settledScreenshot(window.id, on: server, name: "subtitle-embedded-hidden.png")
        try assertSubtitleDrawn(with: with, without: without)
    }

    /// The bottom third differs (the subtitle), the rest is the same frame.
    private func assertSubtitleDrawn(with: String, without: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let bottom = try PixelChecks.differingFraction(with, without, region: bottomThird)
        let top = try PixelChecks.differingFraction(with, without, region: topTwoThirds)
        print("subtitle pixels: bottom third \(bottom), top two thirds \(top) (\(with) vs \(without))")
        XCTAssertGreaterThan(bottom, 0.01, "no subtitle in the bottom third: \(with) vs \(without)", file: file, line: line)
        XCTAssertLessThan(top, 0.01, "not the same frame: \(with) vs \(without)", file: file, line: line)
    }
}
