import Foundation
import TestSupport
import XCTest

/// A user's input.conf acts on keys typed into the video window too (Xvfb, xdotool): with
/// `SPACE ignore`, `y cycle pause` and `x quit` (from a temporary `XDG_CONFIG_HOME`), space
/// does nothing, `y` pauses and `x` quits.
final class WindowInputConfTests: XCTestCase {
    func testInputConfBindingsApplyInTheWindow() throws {
        let server = try XvfbServer(width: 640, height: 480)
        let config = FileManager.default.temporaryDirectory.appendingPathComponent("window-input-conf-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: config.appendingPathComponent("gstplay"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: config) }
        try "SPACE ignore\ny cycle pause\nx quit\n".write(to: config.appendingPathComponent("gstplay/input.conf"), atomically: true, encoding: .utf8)
        var environment = server.environment()
        environment["XDG_CONFIG_HOME"] = config.path
        let gstplay = try GstplayProcess(["--json", "--keep-open", GstplayProcess.fixture("h264-aac-10s.mp4")], environment: environment).started()
        var waited = false
        defer { if !waited { gstplay.send("quit"); _ = gstplay.waitForExit(timeout: 15) } }
        XCTAssertNotNil(gstplay.waitForJSON(timeout: 20) { $0["event"] as? String == "position" && ($0["position"] as? Double ?? 0) > 0.3 },
                        gstplay.stdout)
        let window = try X11Tools.waitForWindow(on: server) { $0.title == "h264-aac-10s.mp4" }
        let mark = gstplay.stdoutLines.count
        // space (ignored), then y (pauses): only one state change, to paused; had space paused,
        // y would have resumed.
        try X11Tools.type(["space", "y"], into: window.id, on: server)
        XCTAssertNotNil(gstplay.waitForJSON(after: mark, timeout: 15) { $0["event"] as? String == "state" && $0["to"] as? String == "paused" },
                        "y did not pause: \(gstplay.stdout.suffix(800))")
        try X11Tools.type(["x"], into: window.id, on: server)
        let status = gstplay.waitForExit(timeout: 20)
        waited = true
        XCTAssertEqual(status, 0, "x did not quit: \(gstplay.stderr)")
        let states = gstplay.stdoutLines.dropFirst(mark).filter { $0.contains(#""event":"state""#) }
        XCTAssertFalse(states.contains { $0.contains(#""to":"playing""#) }, "space still toggled the pause: \(states)")
    }
}
