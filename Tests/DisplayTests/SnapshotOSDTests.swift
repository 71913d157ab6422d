import Foundation
import TestSupport
import XCTest

/// The OSD is in a snapshot only when asked (`snapshot --osd`); a plain
/// `snapshot` reads the frame as it was before the OSD was drawn on it. The OSD is found by its
/// warm yellow (``PixelChecks/osdFraction(_:region:)``), under Xvfb (the OSD is only drawn for a
/// sink that draws into a window). Paused, the OSD (`Paused` and the bar) stays on the picture
/// until playback goes on, so the snapshots around the plain one need no timing: the OSD is on
/// screen before, during and after it (while playing it hides 1.5 s after its last change, and a
/// bracket of snapshots under the suite's load outlasted it).
final class SnapshotOSDTests: XCTestCase {
    func testASnapshotLeavesTheOSDOutUnlessAsked() throws {
        let server = try XvfbServer(width: 800, height: 600)
        let gstplay = try GstplayProcess(["--json", DisplayMedia.h264], environment: server.environment()).started()
        defer { gstplay.send("quit"); _ = gstplay.waitForExit(timeout: 10) }
        XCTAssertNotNil(gstplay.waitForJSON(timeout: 20) { $0["event"] as? String == "position" && ($0["position"] as? Double ?? 0) >= 0.5 })
        let mark = gstplay.stdoutLines.count
        gstplay.send("pause")
        XCTAssertNotNil(gstplay.waitForJSON(after: mark, timeout: 20) { $0["event"] as? String == "state" && $0["to"] as? String == "paused" })
        let directory = X11Tools.screenshotDirectory.appendingPathComponent("snapshot-osd")
        try? FileManager.default.removeItem(at: directory)      // no picture of an earlier run may stand in for one of this run
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        var requestID = 0
        func snapshot(_ name: String, osd: Bool) throws -> String {
            requestID += 1
            let path = directory.appendingPathComponent(name).path
            gstplay.send(#"{"command":["snapshot",\#(osd ? #""--osd","# : "")"\#(path)"],"request_id":\#(requestID)}"#)
            let id = requestID
            let reply = gstplay.waitForJSON(timeout: 20) { ($0["request_id"] as? Int) == id }
            XCTAssertEqual(reply?["error"] as? String, "success",
                           "snapshot \(name): \(String(describing: reply)); gstplay running: \(gstplay.process.isRunning); stderr: \(gstplay.stderr.suffix(2000)); last stdout: \(gstplay.stdoutLines.suffix(4))")
            return path
        }

        // The paused picture is drawn again with the OSD on it once the pause note is set: ask
        // until a snapshot with the OSD has it.
        var withOSD = ""
        let drawn = eventually(timeout: .seconds(20), interval: .milliseconds(200)) {
            guard let path = try? snapshot("with-osd.png", osd: true), let shown = try? PixelChecks.osdFraction(path) else { return false }
            withOSD = path
            return shown > 0.005
        }
        XCTAssertTrue(drawn, "no snapshot with the OSD while paused: \(withOSD)")
        let plain = try snapshot("plain.png", osd: false)
        XCTAssertLessThan(try PixelChecks.osdFraction(plain), 0.001, "a plain snapshot has the OSD: \(plain)")
        let after = try snapshot("with-osd-after.png", osd: true)
        XCTAssertGreaterThan(try PixelChecks.osdFraction(after), 0.005, "the OSD was gone around the plain snapshot: \(after)")
        print("snapshots: \(withOSD) \(plain) \(after)")
    }
}
