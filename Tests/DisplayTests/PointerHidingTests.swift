import Foundation
import TestSupport
import XCTest

/// Over playing video the pointer hides after 1 s without motion and shows
/// again on motion and when playback pauses (the cursor image the X server shows, X Fixes).
final class PointerHidingTests: XCTestCase {
    func testThePointerHidesOverPlayingVideoAndShowsOnMotionAndPause() throws {
        let server = try XvfbServer(width: 640, height: 480)
        let gstplay = try GstplayProcess(["--json", "--audio-sink", "fakeaudiosink", DisplayMedia.h264], environment: server.environment()).started()
        XCTAssertNotNil(gstplay.waitForJSON(timeout: 20) { $0["event"] as? String == "state" && $0["to"] as? String == "playing" }, gstplay.stdout)
        let window = try X11Tools.waitForWindow(on: server) { $0.title == "h264-aac-10s.mp4" }
        let environment = server.environment()
        XCTAssertEqual(try X11Tools.run("xdotool", ["mousemove", "--window", window.id, "60", "60"], environment: environment).status, 0)
        XCTAssertEqual(CursorProbe.isHidden(on: server), false, "hidden at once after a motion")
        XCTAssertTrue(CursorProbe.wait(hidden: true, on: server, timeout: 4), "still shown after 1 s without motion over playing video")

        XCTAssertEqual(try X11Tools.run("xdotool", ["mousemove", "--window", window.id, "90", "90"], environment: environment).status, 0)
        XCTAssertTrue(CursorProbe.wait(hidden: false, on: server, timeout: 2), "not shown again on motion")
        XCTAssertTrue(CursorProbe.wait(hidden: true, on: server, timeout: 4), "not hidden again")

        gstplay.send("pause")
        XCTAssertTrue(CursorProbe.wait(hidden: false, on: server, timeout: 2), "not shown when paused")
        gstplay.send("quit")
        XCTAssertEqual(gstplay.waitForExit(timeout: 15), 0, gstplay.stderr)
    }
}
