import Foundation
import TestSupport
import XCTest

/// The on-screen display, drawn by GStreamer into the picture (a `textoverlay` in the
/// video filter chain), found in screenshots by its warm yellow (the fixture is black, white and grey).
///
/// The OSD stays ``shownFor`` (`--osd-duration`, longer than the 1.5 s default) so that
/// screenshots taken on a loaded machine — `import` can take a second each — still catch it;
/// the bounds below are that duration's, with the load's delays only ever making them longer.
/// The item repeats (`--loop=one`) and the seek goes to 1 s: under load the steps can outlast the
/// 10 s clip, and the sink opens a new window for the repeat (its old one closed, seen by
/// `xwininfo` as gone at the `o` step), so the window is looked up again before `o`.
final class OSDDisplayTests: XCTestCase {
    /// `--osd-duration` for this test, in seconds.
    private let shownFor = 4.0

    /// The OSD shows after a seek and is gone when its time is up; `o` typed into the window shows it again.
    func testTheOSDAppearsAfterASeekGoesWhenItsTimeIsUpAndOShowsIt() throws {
        let server = try XvfbServer(width: 800, height: 600)
        let gstplay = try GstplayProcess(["--json", "--loop=one", "--osd-duration", "\(Int(shownFor * 1000))", DisplayMedia.h264],
                                         environment: server.environment()).started()
        defer { gstplay.send("quit"); _ = gstplay.waitForExit(timeout: 10) }
        XCTAssertNotNil(gstplay.waitForJSON(timeout: 20) { $0["event"] as? String == "position" && ($0["position"] as? Double ?? 0) >= 0.5 })
        let window = try X11Tools.waitForWindow(on: server) { $0.title == "h264-aac-10s.mp4" }
        let shot = X11Tools.screenshotDirectory.appendingPathComponent("osd-before.png").path
        try X11Tools.screenshot(window.id, on: server, to: shot)
        XCTAssertLessThan(try PixelChecks.osdFraction(shot), 0.001, "an OSD before anything happened: \(shot)")

        gstplay.send("seek 1")
        XCTAssertNotNil(gstplay.waitForJSON(timeout: 10) { $0["event"] as? String == "seek-done" })
        let seekLanded = Date()
        let shown = X11Tools.screenshotDirectory.appendingPathComponent("osd-after-seek.png").path
        XCTAssertTrue(try eventuallyOSD(in: window.id, on: server, path: shown, visible: true, within: shownFor - 1), "no OSD after the seek: \(shown)")
        let gone = X11Tools.screenshotDirectory.appendingPathComponent("osd-gone.png").path
        XCTAssertTrue(try eventuallyOSD(in: window.id, on: server, path: gone, visible: false, within: shownFor + 6), "the OSD stayed: \(gone)")
        XCTAssertGreaterThan(Date().timeIntervalSince(seekLanded), shownFor * 2 / 3, "the OSD went before its \(shownFor) s were up")

        let current = try X11Tools.waitForWindow(on: server) { $0.title == "h264-aac-10s.mp4" }
        try X11Tools.type(["o"], into: current.id, on: server)
        let keyShot = X11Tools.screenshotDirectory.appendingPathComponent("osd-key-o.png").path
        XCTAssertTrue(try eventuallyOSD(in: current.id, on: server, path: keyShot, visible: true, within: shownFor - 1), "o showed no OSD: \(keyShot)")
    }

    /// Whether the OSD shows (`visible`) or is gone within `within` seconds. For "shows", the
    /// screenshots are taken first (`import` only, as fast as it goes) and measured after, so a
    /// slow measure on a loaded machine cannot miss a 1.5 s OSD; for "gone", measured as taken.
    private func eventuallyOSD(in window: String, on server: XvfbServer, path: String, visible: Bool, within: TimeInterval) throws -> Bool {
        let deadline = Date().addingTimeInterval(within)
        if visible {
            var shots: [String] = []
            repeat {
                let shot = path + ".\(shots.count).png"
                try X11Tools.screenshot(window, on: server, to: shot)
                shots.append(shot)
            } while Date() < deadline && shots.count < 20
            for shot in shots {
                let fraction = try PixelChecks.osdFraction(shot)
                if fraction > 0.005 {
                    print("OSD fraction \(fraction): \(shot)")
                    try? FileManager.default.removeItem(atPath: path)
                    try FileManager.default.copyItem(atPath: shot, toPath: path)
                    return true
                }
            }
            return false
        }
        repeat {
            try X11Tools.screenshot(window, on: server, to: path)
            let fraction = try PixelChecks.osdFraction(path)
            if fraction < 0.001 { print("OSD fraction \(fraction): \(path)"); return true }
            Thread.sleep(forTimeInterval: 0.1)
        } while Date() < deadline
        return false
    }
}
