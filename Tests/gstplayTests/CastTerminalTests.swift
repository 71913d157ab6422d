import Foundation
import TestSupport
import XCTest

/// Casting under a real pseudo-terminal: `gstplay --cast auto` on a
/// terminal shows the renderer (`→ NAME`) and a status line whose time advances with the
/// renderer's playback; `c` cycles back to local playback.
extension TerminalTests {
    func testStatusLineAdvancesWhileCastingToGMediaRender() throws {
        let lab = try RendererLab()
        defer { lab.tearDown() }
        let renderer = try lab.startGMediaRender(name: "Terminal GMR")
        let arguments = ["--cast", "auto", "--cast-interface", lab.clientInterface, GstplayProcess.fixture("h264-aac-10s.mp4")]
        try session(arguments: arguments) { pty, _, exited, _, screen in
            XCTAssertTrue(pty.read(into: &screen, timeout: 20) { $0.contains("→ Terminal GMR") }, screen)
            XCTAssertTrue(lab.waitForTransportState("PLAYING", on: renderer), renderer.log)
            let mark = screen.count
            XCTAssertTrue(pty.read(into: &screen, timeout: 10) {
                let shown = String($0.dropFirst(mark))
                return shown.contains("0:00:03 / 0:00:10") && shown.contains("→ Terminal GMR")
            }, "the status line's time advances with the renderer: \(screen.suffix(600))")
            XCTAssertGreaterThanOrEqual(lab.positionInfo(renderer)?.position ?? 0, 2, "the renderer plays, not a local copy")
            pty.send("c")   // the only renderer: c goes back to local playback
            XCTAssertTrue(eventually(timeout: .seconds(8), interval: .milliseconds(250)) {
                ["STOPPED", "NO_MEDIA_PRESENT"].contains(lab.transportState(renderer) ?? "")
            }, "cast off with c: \(screen.suffix(600))")
            pty.send("q")
            XCTAssertEqual(exited.wait(timeout: .now() + 20), .success, screen)
        }
    }
}
