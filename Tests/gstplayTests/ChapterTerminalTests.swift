import Foundation
import TestSupport
import XCTest

/// Chapters under a real pseudo-terminal: PgDn / PgUp and `]` / `[` move between
/// chapters and the status line shows the title of the chapter playing. Paused first, so only the
/// keys move the position.
extension TerminalTests {
    func testChapterKeysMoveAndTheStatusLineShowsTheChapterTitle() throws {
        try session(arguments: ["--keep-open", GstplayProcess.fixture("chapters.mkv")]) { pty, _, exited, _, screen in
            XCTAssertTrue(pty.read(into: &screen, timeout: 20) { $0.contains("ch 1/5 Opening") }, screen)
            pty.send(" ")
            XCTAssertTrue(pty.read(into: &screen, timeout: 20) { $0.contains("Paused") }, screen)
            /// Sends `key` and waits for `text` in what the terminal shows after it.
            func press(_ key: String, shows text: String, line: UInt = #line) {
                let mark = screen.count
                pty.send(key)
                XCTAssertTrue(pty.read(into: &screen, timeout: 20) { String($0.dropFirst(mark)).contains(text) }, "\(text): \(screen)", line: line)
            }
            press("]", shows: "0:00:02 / 0:00:06")                  // Middle at 2 s…
            XCTAssertTrue(pty.read(into: &screen, timeout: 20) { $0.contains("ch 3/5 Middle, part one") }, screen)   // …whose first part plays
            press("\u{1B}[6~", shows: "ch 4/5 Middle, part two")     // PgDn
            press("\u{1B}[6~", shows: "ch 5/5 Closing")
            press("\u{1B}[5~", shows: "ch 4/5 Middle, part two")     // PgUp within 2 s of Closing: the one before
            press("[", shows: "ch 3/5 Middle, part one")
            pty.send("q")
            XCTAssertEqual(exited.wait(timeout: .now() + 20), .success, screen)
        }
    }
}
