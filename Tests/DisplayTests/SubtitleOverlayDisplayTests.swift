import Foundation
import TestSupport
import XCTest

/// Subtitles drawn on the video by default when a window exists (external `.srt`, an
/// embedded text track), with the cue events still published; `v` hides them. Each check pauses,
/// seeks into a cue, and compares the bottom third of the paused frame with the same frame
/// without subtitles (same media time, so only the subtitle can differ). The seek preview is
/// off (`--osd-seek-preview=no`): for 1.5 s after a seek it covers the bottom of the picture.
final class SubtitleOverlayDisplayTests: XCTestCase {
    /// The bottom third of a 320×240 window.
    private let bottomThird = "320x80+0+160"
    /// The top two thirds (the picture, the fixture's burnt-in time, the OSD).
    private let topTwoThirds = "320x160+0+0"

    /// The plain case: `gstplay --sub-file subs.srt clip` under Xvfb shows the cue on
    /// the video with no option. The clip is `colour-steps-4s.webm` (solid red, green, blue for
    /// the first three seconds, while the cues run): white in the bottom third is the subtitle.
    func testAnExternalSubtitleFileIsDrawnOnTheVideoWithNoOption() throws {
        let server = try XvfbServer(width: 800, height: 600)
        // (--keep-open only keeps the window after the end, for the screenshots.)
        let gstplay = try GstplayProcess(["--keep-open", "--osd-seek-preview=no", "--sub-file", DisplayMedia.path("subtitles.srt"), DisplayMedia.path("colour-steps-4s.webm")],
                                         environment: server.environment()).started()
        defer { gstplay.send("quit"); _ = gstplay.waitForExit(timeout: 10) }
        let window = try X11Tools.waitForWindow(on: server) { $0.title == "colour-steps-4s.webm" }
        let shot = X11Tools.screenshotDirectory.appendingPathComponent("subtitle-done-means.png").path
        var white = 0.0
        let deadline = Date().addingTimeInterval(5)
        repeat {
            try X11Tools.screenshot(window.id, on: server, to: shot)
            // Not the fourth (white) second: the centre is a colour.
            if try PixelChecks.whiteFraction(shot, region: "20x20+150+110") == 0 {
                white = try PixelChecks.whiteFraction(shot, region: bottomThird)
            }
            if white > 0.0005 { break }
            Thread.sleep(forTimeInterval: 0.1)
        } while Date() < deadline
        print("white in the bottom third: \(white) (\(shot))")
        XCTAssertGreaterThan(white, 0.0005, "no subtitle drawn: \(shot)\n\(gstplay.stderr)")
    }

    /// An external `.srt` with `--json`: its cues still arrive as `subtitle` events, the cue at
    /// 1.5 s is drawn, and `sub-visibility no` hides it.
    func testAnExternalSubtitleIsDrawnAndHiddenOnRequest() throws {
        let server = try XvfbServer(width: 800, height: 600)
        let gstplay = try GstplayProcess(["--json", "--osd-seek-preview=no", "--sub-file", DisplayMedia.path("subtitles.srt"), DisplayMedia.h264],
                                         environment: server.environment()).started()
        defer { gstplay.send("quit"); _ = gstplay.waitForExit(timeout: 10) }
        XCTAssertNotNil(gstplay.waitForJSON(timeout: 20) { $0["event"] as? String == "subtitle" && $0["text"] as? String == "First cue" },
                        "no cue event while subtitles are drawn: \(gstplay.stdout)\n\(gstplay.stderr)")
        let window = try X11Tools.waitForWindow(on: server) { $0.title == "h264-aac-10s.mp4" }
        let with = try pausedFrame(at: 1.5, of: gstplay, window: window.id, on: server, name: "subtitle-external-shown.png")
        gstplay.send("sub-visibility no")
        let without = try pausedFrame(at: 1.5, of: gstplay, window: window.id, on: server, name: "subtitle-external-hidden.png")
        try assertSubtitleDrawn(with: with, without: without)
    }

    /// An embedded text track (`with-subs.mkv`): its cues still arrive as `subtitle` events, the
    /// cue is drawn, and the `v` key typed into the window hides it.
    func testAnEmbeddedTrackIsDrawnCueEventsStillArriveAndVHidesIt() throws {
        let server = try XvfbServer(width: 800, height: 600)
        let gstplay = try GstplayProcess(["--json", "--osd-seek-preview=no", DisplayMedia.path("with-subs.mkv")], environment: server.environment()).started()
        defer { gstplay.send("quit"); _ = gstplay.waitForExit(timeout: 10) }
        XCTAssertNotNil(gstplay.waitForJSON(timeout: 20) { $0["event"] as? String == "subtitle" && $0["text"] as? String == "First cue" },
                        "no cue event while subtitles are drawn: \(gstplay.stdout)\n\(gstplay.stderr)")
        let window = try X11Tools.waitForWindow(on: server) { $0.width == 320 }
        let with = try pausedFrame(at: 1.5, of: gstplay, window: window.id, on: server, name: "subtitle-embedded-shown.png")
        try X11Tools.type(["v"], into: window.id, on: server)
        XCTAssertTrue(gstplay.waitFor(timeout: 10) { stdout, _ in stdout.contains("Subtitles hidden") }, gstplay.stdout)
        let without = try pausedFrame(at: 1.5, of: gstplay, window: window.id, on: server, name: "subtitle-embedded-hidden.png")
        try assertSubtitleDrawn(with: with, without: without)
    }

    /// Pauses, seeks to `seconds`, waits for the landing and for a still window; the screenshot's path.
    private func pausedFrame(at seconds: Double, of gstplay: GstplayProcess, window: String, on server: XvfbServer, name: String) throws -> String {
        let seekDone = "\"event\":\"seek-done\""
        let before = gstplay.stdout.components(separatedBy: seekDone).count
        gstplay.send("pause")
        gstplay.send("seek \(seconds)")
        // (The predicate gets the output: the process's own getters would wait for the lock waitFor holds.)
        XCTAssertTrue(gstplay.waitFor(timeout: 10) { stdout, _ in stdout.components(separatedBy: seekDone).count > before },
                      "no seek-done: \(gstplay.stdout)")
        return try PixelChecks.settledScreenshot(window, on: server, name: name)
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
