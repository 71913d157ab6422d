import Foundation
import TestSupport
import XCTest

/// `--fullscreen` / `--fs`: the sink's window starts fullscreen, under a window manager (EWMH
/// `_NET_WM_STATE_FULLSCREEN`) and on a bare X server (the window covers the screen); `f` then
/// leaves fullscreen as usual.
final class FullscreenStartTests: XCTestCase {
    func testFullscreenUnderAWindowManager() throws {
        let server = try XvfbServer(width: 800, height: 600)
        let manager = try WindowManager(on: server)
        defer { manager.stop() }
        let gstplay = try GstplayProcess(["--json", "--fullscreen", DisplayMedia.h264], environment: server.environment()).started()
        XCTAssertNotNil(gstplay.waitForJSON(timeout: 20) { $0["event"] as? String == "fullscreen" && $0["fullscreen"] as? Bool == true },
                        "no fullscreen event: \(gstplay.stdout)\n\(gstplay.stderr)")
        let window = try X11Tools.waitForManagedWindow(on: server) { $0 == "h264-aac-10s.mp4" }
        XCTAssertTrue(try waitForWindowState(window.id, containing: "_NET_WM_STATE_FULLSCREEN", on: server),
                      "the window manager did not make it fullscreen")
        gstplay.send("quit")
        XCTAssertEqual(gstplay.waitForExit(timeout: 15), 0, gstplay.stderr)
    }

    func testFsOnABareXServerCoversTheScreenAndFLeavesIt() throws {
        let server = try XvfbServer(width: 1024, height: 768)
        let gstplay = try GstplayProcess(["--json", "--fs", DisplayMedia.h264], environment: server.environment()).started()
        let window = try X11Tools.waitForWindow(on: server) { $0.title == "h264-aac-10s.mp4" && $0.width == 1024 && $0.height == 768 }
        try X11Tools.type(["f"], into: window.id, on: server)
        _ = try X11Tools.waitForWindow(on: server) { $0.id == window.id && $0.width == 320 && $0.height == 240 }
        XCTAssertNotNil(gstplay.waitForJSON(timeout: 10) { $0["event"] as? String == "fullscreen" && $0["fullscreen"] as? Bool == false },
                        gstplay.stdout)
        gstplay.send("quit")
        XCTAssertEqual(gstplay.waitForExit(timeout: 15), 0, gstplay.stderr)
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
