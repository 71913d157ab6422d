@testable import BackendWindow
import Foundation
import TestSupport
import XCTest

/// Shifted keys typed into the video window act as they do on the terminal. The X sinks report
/// the key's unshifted symbol with the modifier state beside it (`S` arrives as `s` + Shift, `>`
/// as `period` + Shift): `S` cycled the subtitles instead of writing a snapshot, `>` and `<` did
/// not change the item, `?` printed nothing.
final class WindowShiftedKeysTests: XCTestCase {
    func testShiftedKeysInTheWindowActAsOnTheTerminal() throws {
        let server = try XvfbServer(width: 640, height: 480)
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("shifted-keys-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let gstplay = try GstplayProcess(["--json", "--keep-open", GstplayProcess.fixture("h264-aac-10s.mp4"), GstplayProcess.fixture("vp8-opus-4s.webm")],
                                         environment: server.environment(), directory: directory.path).started()
        defer { gstplay.send("quit"); _ = gstplay.waitForExit(timeout: 15) }
        XCTAssertNotNil(gstplay.waitForJSON(timeout: 20) { $0["event"] as? String == "position" && ($0["position"] as? Double ?? 0) > 0.3 },
                        gstplay.stdout)
        let first = try X11Tools.waitForWindow(on: server) { $0.title == "h264-aac-10s.mp4" }

        // `?`: the key list (text lines, as on the terminal).
        try X11Tools.type(["question"], into: first.id, on: server)
        XCTAssertTrue(gstplay.waitFor(timeout: 10) { out, err in (out + err).contains("Keys:") }, "? printed no keys: \(gstplay.stderr)")

        // `S`: a snapshot in the working directory (mpv's name), not a subtitle cycle.
        try X11Tools.type(["S"], into: first.id, on: server)
        XCTAssertTrue(eventually(timeout: .seconds(15), interval: .milliseconds(100)) {
            ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []).contains { $0.hasPrefix("gstplay-") && $0.hasSuffix(".png") }
        }, "S wrote no snapshot: \(gstplay.stdout.suffix(800)) \(gstplay.stderr)")

        // `>`: the next item; `<` (in the next item's window): back to the first.
        try X11Tools.type(["greater"], into: first.id, on: server)
        XCTAssertNotNil(gstplay.waitForJSON(timeout: 15) { $0["event"] as? String == "uri" && $0["index"] as? Int == 1 },
                        "> did not go to the next item: \(gstplay.stdout.suffix(800))")
        let second = try X11Tools.waitForWindow(on: server) { $0.title == "vp8-opus-4s.webm" }
        let mark = gstplay.stdoutLines.count
        try X11Tools.type(["less"], into: second.id, on: server)
        XCTAssertNotNil(gstplay.waitForJSON(after: mark, timeout: 15) { $0["event"] as? String == "uri" && $0["index"] as? Int == 0 },
                        "< did not go back: \(gstplay.stdout.suffix(800))")
    }

    /// The name rule without a server: Shift or Lock asks the keyboard's mapping; without an answer
    /// a letter is upper-cased; other modifiers (Control: 4) leave the name as reported.
    func testTheKeyNameFollowsShiftAndLock() {
        let usLayout: (String, UInt32) -> String? = { name, _ in ["period": "greater", "comma": "less", "slash": "question", "s": "S"][name] }
        let noDisplay: (String, UInt32) -> String? = { _, _ in nil }
        XCTAssertEqual(VideoWindow.keyName("period", modifiers: 1, lookup: usLayout), "greater")
        XCTAssertEqual(VideoWindow.keyName("slash", modifiers: 1, lookup: usLayout), "question")
        XCTAssertEqual(VideoWindow.keyName("s", modifiers: 2, lookup: usLayout), "S", "Caps Lock")
        XCTAssertEqual(VideoWindow.keyName("period", modifiers: 0, lookup: usLayout), "period")
        XCTAssertEqual(VideoWindow.keyName("s", modifiers: 4, lookup: usLayout), "s", "Control only")
        XCTAssertEqual(VideoWindow.keyName("s", modifiers: 1, lookup: noDisplay), "S")
        XCTAssertEqual(VideoWindow.keyName("period", modifiers: 1, lookup: noDisplay), "period")
        XCTAssertEqual(VideoWindow.keyName("Left", modifiers: 1, lookup: noDisplay), "Left")
    }
}
