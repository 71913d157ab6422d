import Foundation
import TestSupport
import XCTest

/// With `--resume`, the position is stored even when the video window is
/// destroyed under gstplay (`xdotool windowclose`): ximagesink's next `XShmPutImage` then fails
/// and Xlib's default error handler calls `exit(1)` on a streaming thread.
final class WindowCloseResumeTests: XCTestCase {
    func testDestroyingTheWindowStillStoresTheResumePosition() throws {
        let server = try XvfbServer(width: 800, height: 600)
        let state = NSTemporaryDirectory() + "gstplay-window-resume-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: state) }
        let gstplay = try GstplayProcess(["--json", "--resume", DisplayMedia.h264],
                                         environment: server.environment(["XDG_STATE_HOME": state])).started()
        XCTAssertNotNil(gstplay.waitForJSON(timeout: 20) { $0["event"] as? String == "position" && ($0["position"] as? Double ?? 0) >= 2 },
                        "not playing: \(gstplay.stdout)\n\(gstplay.stderr)")
        let window = try X11Tools.waitForWindow(on: server) { $0.title == "h264-aac-10s.mp4" }
        let closed = try X11Tools.run("xdotool", ["windowclose", window.id], environment: server.environment())
        XCTAssertEqual(closed.status, 0, closed.output)
        XCTAssertNotNil(gstplay.waitForExit(timeout: 15), "gstplay did not exit after its window was destroyed")
        let text = try String(contentsOfFile: state + "/gstplay/resume.json", encoding: .utf8)
        let json = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        let positions = (json["entries"] as? [[String: Any]] ?? []).compactMap { $0["position"] as? Double }
        XCTAssertEqual(positions.count, 1, text)
        XCTAssertGreaterThanOrEqual(positions.first ?? 0, 2, text)
    }
}
