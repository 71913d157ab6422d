import Foundation
import TestSupport
import XCTest

/// Chapter keys typed into the video window on a private X server: Page Down / `]`
/// go to the next chapter and Page Up / `[` to the previous one, as on the terminal.
final class ChapterWindowKeysTests: XCTestCase {
    func testPageKeysAndBracketsInTheWindowMoveBetweenChapters() throws {
        let server = try XvfbServer(width: 640, height: 480)
        let gstplay = try GstplayProcess(["--json", "--keep-open", GstplayProcess.fixture("chapters.mkv")], environment: server.environment()).started()
        let window = try X11Tools.waitForWindow(on: server) { $0.width == 160 && $0.height == 120 }   // the video window (its title is a tag's)
        try X11Tools.type(["space"], into: window.id, on: server)
        XCTAssertNotNil(gstplay.waitForJSON(timeout: 10) { $0["event"] as? String == "state" && $0["to"] as? String == "paused" },
                        "no pause after space: \(gstplay.stdout)")
        /// Types `key` and waits for the `chapter` event naming `title` after it.
        func type(_ key: String, reaches title: String, line: UInt = #line) throws {
            let seen = gstplay.jsonLines.count
            try X11Tools.type([key], into: window.id, on: server)
            let reached = gstplay.waitFor(timeout: 10) { out, _ in
                GstplayProcess.completeLines(out).dropFirst(seen).compactMap(jsonObject)
                    .contains { $0["event"] as? String == "chapter" && $0["title"] as? String == title }
            }
            XCTAssertTrue(reached, "\(key) → \(title): \(gstplay.stdout.suffix(1500))", line: line)
        }
        try type("Next", reaches: "Middle, part one")            // Page Down: Middle at 2 s, its first part plays
        try type("bracketright", reaches: "Middle, part two")
        try type("Prior", reaches: "Middle, part one")           // Page Up within 2 s: Middle (2 s) again
        try type("bracketleft", reaches: "Opening")
        try X11Tools.type(["q"], into: window.id, on: server)
        XCTAssertEqual(gstplay.waitForExit(timeout: 15), 0, gstplay.stderr)
    }
}
