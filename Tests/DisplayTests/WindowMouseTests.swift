import Foundation
import TestSupport
import XCTest

/// With `xdotool` on a window managed by openbox: a click toggles pause (the
/// position then stays put), a double click toggles fullscreen (`_NET_WM_STATE_FULLSCREEN`) and
/// leaves the pause alone, the wheel seeks (up: forward).
final class WindowMouseTests: XCTestCase {
    func testAClickPausesADoubleClickGoesFullscreenAndTheWheelSeeks() throws {
        let server = try XvfbServer(width: 800, height: 600)
        let manager = try WindowManager(on: server)
        defer { manager.stop() }
        let gstplay = try GstplayProcess(["--json", DisplayMedia.h264], environment: server.environment()).started()
        XCTAssertNotNil(gstplay.waitForJSON(timeout: 20) { $0["event"] as? String == "position" && ($0["position"] as? Double ?? 0) >= 0.5 },
                        "not playing: \(gstplay.stdout)\n\(gstplay.stderr)")
        let window = try X11Tools.waitForManagedWindow(on: server) { $0 == "h264-aac-10s.mp4" }
        let environment = server.environment()

        XCTAssertEqual(try X11Tools.run("xdotool", ["mousemove", "--window", window.id, "100", "100", "click", "1"], environment: environment).status, 0)
        XCTAssertNotNil(gstplay.waitForJSON(timeout: 10) { $0["event"] as? String == "state" && $0["to"] as? String == "paused" },
                        "no pause after a click: \(gstplay.stdout)")
        let before = try status(of: gstplay, id: "before")
        Thread.sleep(forTimeInterval: 1)   // paused: the position stays put over 1 s
        let after = try status(of: gstplay, id: "after")
        XCTAssertEqual(before, after, accuracy: 0.001, "the position moved while paused")

        XCTAssertEqual(try X11Tools.run("xdotool", ["click", "--repeat", "2", "--delay", "60", "1"], environment: environment).status, 0)
        XCTAssertNotNil(gstplay.waitForJSON(timeout: 10) { $0["event"] as? String == "fullscreen" && $0["fullscreen"] as? Bool == true },
                        "no fullscreen after a double click: \(gstplay.stdout)")
        XCTAssertTrue(try waitForWindowState(window.id, containing: "_NET_WM_STATE_FULLSCREEN", on: server))
        try X11Tools.assertShowsPicture(window.id, on: server, width: 800, screenshot: "gstplay-double-click-fullscreen.png",
                                        black: "the fullscreen window shows no picture")
        XCTAssertFalse(gstplay.jsonLines.contains { $0["event"] as? String == "state" && $0["to"] as? String == "playing" && $0["from"] as? String == "paused" },
                       "the double click toggled pause: \(gstplay.stdout)")

        XCTAssertEqual(try X11Tools.run("xdotool", ["click", "4"], environment: environment).status, 0)
        let landed = gstplay.waitForJSON(timeout: 10) { $0["event"] as? String == "seek-done" }
        XCTAssertGreaterThan(landed?["position"] as? Double ?? 0, after + 2, "the wheel did not seek forward: \(gstplay.stdout)")

        gstplay.send("quit")
        XCTAssertEqual(gstplay.waitForExit(timeout: 15), 0, gstplay.stderr)
    }

    /// The position in a `status` reply (request id `id`).
    private func status(of gstplay: GstplayProcess, id: String) throws -> Double {
        gstplay.send(#"{"command": "status", "request_id": "\#(id)"}"#)
        let reply = try XCTUnwrap(gstplay.waitForJSON(timeout: 10) { $0["request_id"] as? String == id }, gstplay.stdout)
        return try XCTUnwrap((reply["data"] as? [String: Any])?["position"] as? Double, "\(reply)")
    }

    /// Polls `xprop _NET_WM_STATE` of `window` until it names `state` (10 s).
    private func waitForWindowState(_ window: String, containing state: String, on server: XvfbServer) throws -> Bool {
        let deadline = Date().addingTimeInterval(10)
        repeat {
            if try X11Tools.run("xprop", ["-id", window, "_NET_WM_STATE"], environment: server.environment()).output.contains(state) { return true }
            Thread.sleep(forTimeInterval: 0.1)
        } while Date() < deadline
        return false
    }
}
