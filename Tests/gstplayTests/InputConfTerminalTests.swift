import Foundation
import TestSupport
import XCTest

/// A user's input.conf in a temporary `XDG_CONFIG_HOME`, under a real pseudo-terminal: `x quit`
/// quits and `SPACE ignore` no longer pauses (playback goes on); the other built-in keys still work (`?` lists the
/// keys in force, with `x`).
extension TerminalTests {
    func testInputConfRebindsKeysOnTheTerminal() throws {
        let config = FileManager.default.temporaryDirectory.appendingPathComponent("input-conf-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: config.appendingPathComponent("gstplay"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: config) }
        try """
            # mine
            x       quit           # leave
            SPACE   ignore
            Ctrl+o  osd
            """.write(to: config.appendingPathComponent("gstplay/input.conf"), atomically: true, encoding: .utf8)
        var environment = ProcessInfo.processInfo.environment
        environment["XDG_CONFIG_HOME"] = config.path
        try session(arguments: ["--keep-open", GstplayProcess.fixture("h264-aac-10s.mp4")], environment: environment) { pty, process, exited, _, screen in
            XCTAssertTrue(pty.read(into: &screen, timeout: 20) { $0.contains(" / 0:00:10") }, screen)
            var mark = screen.count
            pty.send("?")
            XCTAssertTrue(pty.read(into: &screen, timeout: 20) { String($0.dropFirst(mark)).contains("quit") && String($0.dropFirst(mark)).contains("leave") }, screen)
            XCTAssertFalse(String(screen.dropFirst(mark)).contains("SPACE"), "an ignored key is not listed: \(screen)")
            // SPACE does nothing now: playback goes on (paused, the position would stop before 3 s).
            mark = screen.count
            pty.send(" ")
            pty.send("m")
            XCTAssertTrue(pty.read(into: &screen, timeout: 20) { String($0.dropFirst(mark)).contains("muted") }, screen)
            XCTAssertTrue(pty.read(into: &screen, timeout: 30) { String($0.dropFirst(mark)).contains("0:00:03 / 0:00:10") }, "SPACE ignore still paused: \(screen)")
            XCTAssertFalse(String(screen.dropFirst(mark)).contains("Paused"), "SPACE ignore still paused: \(screen)")
            pty.send("x")
            XCTAssertEqual(exited.wait(timeout: .now() + 20), .success, "gstplay did not quit on 'x': \(screen)")
            XCTAssertEqual(process.terminationStatus, 0, screen)
        }
    }
}
