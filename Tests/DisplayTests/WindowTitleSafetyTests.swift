import Foundation
import TestSupport
import XCTest

/// On a private X server, a file name with control characters reaches the
/// window manager escaped (``TerminalText``), as it reaches the terminal.
final class WindowTitleSafetyTests: XCTestCase {
    func testAHostileFileNameTitlesTheWindowEscaped() throws {
        let directory = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("gstplay-title-\(getpid())-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let clip = directory.appendingPathComponent("evil\u{1B}]0;PWNED\u{07}\u{9B}2J\nx.mp4").path
        try FileManager.default.copyItem(atPath: DisplayMedia.path("short-0.2s.mp4"), toPath: clip)

        let server = try XvfbServer(width: 640, height: 480)
        let gstplay = try GstplayProcess(["--json", "--keep-open", clip], environment: server.environment()).started()
        let window = try X11Tools.waitForWindow(on: server) { $0.title.hasPrefix("evil") }
        XCTAssertEqual(window.title, "evil\\u001b]0;PWNED\\u0007\\u009b2J\\u000ax.mp4")
        gstplay.send("quit")
        XCTAssertEqual(gstplay.waitForExit(timeout: 15), 0, gstplay.stderr)
    }
}
