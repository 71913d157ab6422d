import Foundation
import TestSupport
import XCTest

/// The screenshot helpers' fallback: when `ximagesrc` cannot read a window by id, the window's
/// rectangle is read from the root window instead (`X11Tools.screenArea`, then
/// `screenshotScreen`). A gstplay window is placed on the screen and half off it.
final class ScreenAreaTests: XCTestCase {
    func testAWindowsAreaIsWhereItIsAndCutToTheScreen() throws {
        let server = try XvfbServer(width: 800, height: 600)
        let gstplay = try GstplayProcess(["--quiet", "--keep-open", "--no-audio", "--video-sink", "ximagesink",
                                          GstplayProcess.fixture("h264-aac-10s.mp4")], environment: server.environment()).started()
        defer {
            gstplay.send("quit")
            _ = gstplay.waitForExit(timeout: 20)
        }
        let window = try X11Tools.waitForWindow(on: server) { $0.title == "h264-aac-10s.mp4" }

        try X11Tools.run("xdotool", ["windowmove", "--sync", window.id, "30", "40"], environment: server.environment())
        let inside = try X11Tools.screenArea(of: window.id, on: server)
        XCTAssertEqual(inside.x, 30)
        XCTAssertEqual(inside.y, 40)
        XCTAssertEqual(inside.width, window.width)
        XCTAssertEqual(inside.height, window.height)

        try X11Tools.run("xdotool", ["windowmove", "--sync", window.id, "\(800 - 100)", "40"], environment: server.environment())
        let cut = try X11Tools.screenArea(of: window.id, on: server)
        XCTAssertEqual(cut.x, 700)
        XCTAssertEqual(cut.width, 100, "the part on the 800-pixel screen")
        XCTAssertEqual(cut.height, window.height)

        let shot = X11Tools.screenshotDirectory.appendingPathComponent("screen-area-cut.png").path
        try X11Tools.screenshotScreen(x: cut.x, y: cut.y, width: cut.width, height: cut.height, on: server, to: shot)
        let picture = try X11Tools.brightness(of: shot)
        XCTAssertEqual(picture.width, 100)
        XCTAssertEqual(picture.height, window.height)
    }
}
