import Backend
import Foundation
import TestSupport
import XCTest
@testable import BackendControl
@testable import gstplay

/// input.conf (mpv's syntax): key names and modifiers, comments, `ignore`, bad lines named by
/// `file:line` while the others apply; and `--list-keys`, which prints the built-in file.
final class InputConfTests: XCTestCase {
    func testKeyNamesAndModifiers() {
        XCTAssertEqual(KeyName.canonical("a"), "a")
        XCTAssertEqual(KeyName.canonical("A"), "A")
        XCTAssertEqual(KeyName.canonical("Shift+a"), "A", "Shift on a letter is the capital")
        XCTAssertEqual(KeyName.canonical("space"), "SPACE")
        XCTAssertEqual(KeyName.canonical("Space"), "SPACE")
        XCTAssertEqual(KeyName.canonical("pgdwn"), "PGDWN")
        XCTAssertEqual(KeyName.canonical("ctrl+LEFT"), "Ctrl+LEFT")
        XCTAssertEqual(KeyName.canonical("Shift+Alt+Ctrl+x"), "Ctrl+Alt+X", "modifiers in any order and case")
        XCTAssertEqual(KeyName.canonical("Alt+ENTER"), "Alt+ENTER")
        XCTAssertEqual(KeyName.canonical("+"), "PLUS")
        XCTAssertEqual(KeyName.canonical("Ctrl++"), "Ctrl+PLUS")
        XCTAssertEqual(KeyName.canonical("SHARP"), "SHARP")
        XCTAssertEqual(KeyName.canonical("MBTN_LEFT_DBL"), "MBTN_LEFT_DBL")
        XCTAssertEqual(KeyName.canonical("F11"), "F11")
        XCTAssertNil(KeyName.canonical("FOO"))
        XCTAssertNil(KeyName.canonical("Hyper+a"))
        XCTAssertNil(KeyName.canonical("é"))
        XCTAssertNil(KeyName.canonical(""))
    }

    func testALineBindsAKeyToAConsoleCommand() {
        var bindings = InputBindings.builtin
        let warnings = bindings.apply("""
            # a comment line
              x   quit          # quits
            ctrl+RIGHT seek +5
            Shift+z    add volume -5

            SPACE ignore
            LEFT  Ignore  # unbinds
            \tk\tosd  hello world\r
            """, file: "/tmp/input.conf")
        XCTAssertEqual(warnings, [])
        XCTAssertEqual(bindings.binding(for: .character("x")), KeyBinding(command: "quit", parsed: .quit, summary: "quits"))
        XCTAssertEqual(bindings.binding(for: .named("Ctrl+RIGHT"))?.parsed, .seek(.relative(MediaTime(seconds: 5))))
        XCTAssertEqual(bindings.binding(for: .character("Z"))?.parsed, .add(.volume, -5))
        XCTAssertEqual(bindings.binding(for: .character("k"))?.parsed, .osd("hello world"))
        XCTAssertNil(bindings.binding(for: .character(" ")), "ignore unbinds")
        XCTAssertNil(bindings.binding(for: .left))
        XCTAssertEqual(bindings.binding(for: .right)?.parsed, .seek(.relative(MediaTime(seconds: 10))), "the other built-in keys stay")
        XCTAssertEqual(bindings.command(for: "space"), "ignore")
        XCTAssertFalse(bindings.rows.contains { $0.keys.split(separator: " ").contains("SPACE") }, "an ignored key is not listed")
        XCTAssertTrue(bindings.rows.contains { $0.keys == "x" && $0.summary.hasPrefix("quit") && $0.summary.hasSuffix("quits") })
    }

    func testBadLinesAreNamedByFileAndLineAndTheRestApplies() {
        var bindings = InputBindings.builtin
        let warnings = bindings.apply("""
            FOO quit
            x frobnicate
            y seek
            z
            w quit
            """, file: "/home/u/.config/gstplay/input.conf")
        XCTAssertEqual(warnings, [
            "/home/u/.config/gstplay/input.conf:1: unknown key 'FOO'",
            "/home/u/.config/gstplay/input.conf:2: unknown command 'frobnicate' (type 'help' for the list)",
            "/home/u/.config/gstplay/input.conf:3: seek: missing argument (expected a time: \(SeekArgument.formats))",
            "/home/u/.config/gstplay/input.conf:4: no command for key 'z' (use 'ignore' to unbind it)",
        ])
        XCTAssertEqual(bindings.binding(for: .character("w"))?.parsed, .quit)
        XCTAssertNil(bindings.binding(for: .character("x")))
    }

    /// Every key of the built-in file parses (the built-in table would trap otherwise), and the
    /// mpv spellings map onto the console's commands.
    func testTheBuiltinFileAndMpvSpellings() {
        XCTAssertFalse(InputBindings.builtin.rows.isEmpty)
        XCTAssertEqual(try ConsoleCommand.parse("cycle pause").get(), .cycle(.pause))
        XCTAssertEqual(try ConsoleCommand.parse("cycle aid").get(), .cycle(.audio))
        XCTAssertEqual(try ConsoleCommand.parse("cycle sid").get(), .cycle(.sub))
        XCTAssertEqual(try ConsoleCommand.parse("playlist-next").get(), .next)
        XCTAssertEqual(try ConsoleCommand.parse("playlist-prev").get(), .prev)
        XCTAssertEqual(try ConsoleCommand.parse("add speed -0.25").get(), .add(.speed, -0.25))
        if case .failure(let error) = ConsoleCommand.parse("cycle bogus") {
            XCTAssertTrue(error.message.hasPrefix("cycle: cannot cycle 'bogus'"), error.message)
        } else {
            XCTFail("cycle bogus parsed")
        }
        XCTAssertEqual(ConsoleCommand.parse("add volume"), .failure(ConsoleError("add: expected a property and an amount, e.g. 'add volume 2' or 'add speed -0.1'")))
        XCTAssertEqual(ConsoleCommand.parse("add pitch 1"), .failure(ConsoleError("add: cannot add to 'pitch' (expected volume or speed)")))
        XCTAssertEqual(InputBindings.userFile(explicit: nil, directory: "/x/config/gstplay"), "/x/config/gstplay/input.conf")
        XCTAssertEqual(InputBindings.userFile(explicit: "my.conf", directory: "/x/config/gstplay"), "my.conf")
        XCTAssertEqual(InputBindings.userFile(explicit: "my.conf", directory: nil), "my.conf", "--input-conf even with --no-config")
        XCTAssertNil(InputBindings.userFile(explicit: nil, directory: nil), "--no-config: no user file")
    }

    /// `--list-keys` prints the built-in input.conf, and the printed file read back as a user's
    /// file gives the same bindings.
    func testListKeysPrintsTheBuiltinFile() throws {
        let run = try GstplayProcess.run(["--list-keys"])
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(run.stdout, BuiltinInputConf.text)
        XCTAssertTrue(run.stdout.contains("\nSPACE         cycle pause"), run.stdout)
        var again = InputBindings()
        XCTAssertEqual(again.apply(run.stdout, file: "listed"), [])
        XCTAssertEqual(again, InputBindings.builtin)

        let keyList = try GstplayProcess.run(["--input-keylist"])
        XCTAssertEqual(keyList.status, 0, keyList.stderr)
        let names = keyList.stdout.split(separator: "\n").map(String.init)
        XCTAssertTrue(["SPACE", "PGDWN", "MBTN_LEFT_DBL", "F12", "Ctrl+", "Shift+"].allSatisfy(names.contains), keyList.stdout)
        XCTAssertTrue(names.allSatisfy { $0.hasSuffix("+") || KeyName.canonical($0) == $0 }, "every listed name is a key name: \(names)")
    }

    /// `--input-conf` naming a missing file: one line and exit 2; a bad line: one warning naming
    /// `file:line` and playback goes on.
    func testInputConfOptionErrorsAndWarnings() throws {
        let missing = try GstplayProcess.run(["--input-conf", "/nonexistent/input.conf", GstplayProcess.fixture("h264-aac-10s.mp4")])
        XCTAssertEqual(missing.status, 2)
        XCTAssertEqual(missing.stderr, "gstplay: error: --input-conf: cannot read '/nonexistent/input.conf'\n")

        let file = FileManager.default.temporaryDirectory.appendingPathComponent("input-\(UUID().uuidString.prefix(8)).conf")
        try "BOGUS quit\nx quit\n".write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        let run = try GstplayProcess.run(["--input-conf", file.path, "--no-video", "--audio-sink", "fakeaudiosink", GstplayProcess.fixture("vp8-opus-4s.webm")],
                                         input: ["quit"])
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertTrue(run.stderr.contains("gstplay: warning: \(file.path):1: unknown key 'BOGUS'\n"), run.stderr)
    }
}
