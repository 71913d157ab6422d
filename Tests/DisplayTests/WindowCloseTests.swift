import Foundation
import TestSupport
import XCTest

/// Closing the video window ends gstplay cleanly (exit 0, no error line), also
/// in a playlist, where no window opens for the next item — through the window manager's close
/// button (`wmctrl -c`: `WM_DELETE_WINDOW`, under openbox) and by destroying the window
/// (`xdotool windowclose`: `XDestroyWindow`, no window manager).
final class WindowCloseTests: XCTestCase {
    private let playlist = [DisplayMedia.h264, DisplayMedia.path("vp8-opus-4s.webm"), DisplayMedia.path("tracks.mkv")]

    func testTheWindowManagersCloseButtonEndsAPlaylistWithExitZero() throws {
        let server = try XvfbServer(width: 800, height: 600)
        let manager = try WindowManager(on: server)
        defer { manager.stop() }
        let gstplay = try GstplayProcess(["--json"] + playlist, input: .devNull, environment: server.environment()).started()
        try waitUntilPlaying(gstplay)
        let window = try X11Tools.waitForManagedWindow(on: server) { $0 == "h264-aac-10s.mp4" }
        let closed = try X11Tools.run("wmctrl", ["-i", "-c", window.id], environment: server.environment())
        XCTAssertEqual(closed.status, 0, closed.output)
        try assertEndedCleanly(gstplay, on: server)
    }

    func testDestroyingTheWindowEndsAPlaylistWithExitZero() throws {
        let server = try XvfbServer(width: 800, height: 600)
        let gstplay = try GstplayProcess(["--json"] + playlist, input: .devNull, environment: server.environment()).started()
        try waitUntilPlaying(gstplay)
        let window = try X11Tools.waitForWindow(on: server) { $0.title == "h264-aac-10s.mp4" }
        let closed = try X11Tools.run("xdotool", ["windowclose", window.id], environment: server.environment())
        XCTAssertEqual(closed.status, 0, closed.output)
        try assertEndedCleanly(gstplay, on: server)
    }

    private func waitUntilPlaying(_ gstplay: GstplayProcess, file: StaticString = #filePath, line: UInt = #line) throws {
        XCTAssertNotNil(gstplay.waitForJSON(timeout: 20) { $0["event"] as? String == "position" && ($0["position"] as? Double ?? 0) >= 0.5 },
                        "not playing: \(gstplay.stdout)\n\(gstplay.stderr)", file: file, line: line)
    }

    /// Exit 0, nothing on stderr that looks like an error, the window-closed event, no load of
    /// the second item and no window left or opened for it.
    private func assertEndedCleanly(_ gstplay: GstplayProcess, on server: XvfbServer, file: StaticString = #filePath, line: UInt = #line) throws {
        XCTAssertEqual(gstplay.waitForExit(timeout: 15), 0, "stdout:\n\(gstplay.stdout)\nstderr:\n\(gstplay.stderr)", file: file, line: line)
        XCTAssertFalse(gstplay.stderr.contains("error"), gstplay.stderr, file: file, line: line)
        XCTAssertNotNil(gstplay.jsonLines.first { $0["event"] as? String == "window-closed" }, gstplay.stdout, file: file, line: line)
        let loads = gstplay.jsonLines.filter { $0["event"] as? String == "uri" }.compactMap { $0["uri"] as? String }
        XCTAssertEqual(loads.count, 1, "a later item was loaded: \(loads)", file: file, line: line)
        let titles = try X11Tools.topLevelWindows(on: server).map(\.title)
        XCTAssertFalse(titles.contains { $0.hasSuffix(".webm") || $0.hasSuffix(".mkv") }, "a window for the next item: \(titles)", file: file, line: line)
    }
}
