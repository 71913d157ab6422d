import Backend
import XCTest
@testable import BackendControl
@testable import gstplay

/// Key decoding, key bindings, line splitting and the playlist: the pure parts of input handling.
final class InputTests: XCTestCase {
    func testKeyDecoder() {
        var decoder = KeyDecoder()
        XCTAssertEqual(decoder.feed(Array(" q".utf8)), [.character(" "), .character("q")])
        XCTAssertEqual(decoder.feed([0x1B, 0x5B, 0x41, 0x1B, 0x5B, 0x42, 0x1B, 0x5B, 0x43, 0x1B, 0x5B, 0x44]), [.up, .down, .right, .left])
        XCTAssertEqual(decoder.feed([0x1B, 0x4F, 0x43]), [.right], "application cursor mode")
        XCTAssertEqual(decoder.feed(Array("\u{1B}[1;5C".utf8)), [.right], "with modifiers")
        XCTAssertEqual(decoder.feed([0x1B]), [], "split escape sequence waits")
        XCTAssertEqual(decoder.feed([0x5B]), [])
        XCTAssertEqual(decoder.feed([0x44, 0x6D]), [.left, .character("m")])
        XCTAssertEqual(decoder.feed(Array("\u{1B}[3~x\u{1B}[15~".utf8)), [.named("DEL"), .character("x")], "Delete; F5 and other sequences are ignored")
        XCTAssertEqual(decoder.feed(Array("\u{1B}[5~\u{1B}[6~".utf8)), [.pageUp, .pageDown], "Page Up / Page Down (chapters)")
        XCTAssertEqual(decoder.feed([0x1B, 0x71]), [.named("Alt+q")], "ESC and a character: Alt+")
        XCTAssertEqual(decoder.feed([0x1B, 0x0A]), [.named("ENTER")], "a lone ESC is dropped")
        XCTAssertEqual(decoder.feed([0xC3, 0xA9, 0x0A, 0x0D, 0x01, 0x09, 0x7F, 0x1F]), [.named("ENTER"), .named("ENTER"), .named("Ctrl+a"), .named("TAB"), .named("BS")],
                       "non-ASCII and other control bytes do nothing")
        XCTAssertEqual([Key.character(" "), .character("#"), .character("+"), .character("A"), .pageDown, .named("Ctrl+a")].map(\.name),
                       ["SPACE", "SHARP", "PLUS", "A", "PGDWN", "Ctrl+a"])
    }

    func testBuiltinKeyBindings() {
        XCTAssertEqual(bound(.character(" ")), .cycle(.pause))
        XCTAssertEqual(bound(.left), .seek(.relative(MediaTime(seconds: -10))))
        XCTAssertEqual(bound(.right), .seek(.relative(MediaTime(seconds: 10))))
        XCTAssertEqual(bound(.down), .seek(.relative(MediaTime(seconds: -60))))
        XCTAssertEqual(bound(.up), .seek(.relative(MediaTime(seconds: 60))))
        XCTAssertEqual(bound(.character("9")), .add(.volume, -2))
        XCTAssertEqual(bound(.character("0")), .add(.volume, 2))
        XCTAssertEqual(bound(.character("+")), .add(.speed, 0.1))
        XCTAssertEqual(bound(.character("-")), .add(.speed, -0.1))
        XCTAssertEqual(bound(.character("m")), .cycle(.mute))
        XCTAssertEqual(bound(.character("n")), .next)
        XCTAssertEqual(bound(.character(">")), .next, "mpv's keys")
        XCTAssertEqual(bound(.character("<")), .prev)
        XCTAssertEqual(bound(.character("p")), .prev)
        XCTAssertEqual(bound(.character("?")), .keys)
        XCTAssertEqual(bound(.character("q")), .quit)
        XCTAssertNil(bound(.character("z")))
        XCTAssertEqual(RateStep.stepped(from: 1, by: 0.1), 1.1)
        XCTAssertEqual(RateStep.stepped(from: 0.1, by: -0.1), -0.1, "0 is skipped")
        XCTAssertEqual(RateStep.stepped(from: -0.1, by: 0.1), 0.1)
        XCTAssertEqual(RateStep.stepped(from: 1.7000000001, by: 0.1), 1.8)
    }

    func testLineSplitter() {
        var splitter = LineSplitter(maxLength: 8)
        XCTAssertEqual(splitter.feed(Array("pa".utf8)), [])
        XCTAssertEqual(splitter.feed(Array("use\r\nplay\n\n".utf8)), [.line("pause"), .line("play"), .line("")])
        XCTAssertEqual(splitter.feed(Array("0123456789".utf8)), [.tooLong(8)])
        XCTAssertEqual(splitter.feed(Array("abcdef".utf8)), [], "still discarding")
        XCTAssertEqual(splitter.feed(Array("gh\nquit".utf8)), [], "the long line is dropped up to its newline")
        XCTAssertEqual(splitter.finish(), [.line("quit")], "a last line without newline counts")
        XCTAssertEqual(splitter.feed([0xFF, 0xFE, 0x41, 0x0A]), [.line("\u{FFFD}\u{FFFD}A")], "invalid UTF-8 is replaced, not fatal")
        XCTAssertEqual(splitter.feed(Array("12345678\n".utf8)), [.line("12345678")], "exactly the limit is fine")
    }

    func testLineSplitterBigInput() {
        var splitter = LineSplitter()
        let megabyte = [UInt8](repeating: 0x61, count: 1 << 20) + [0x0A] + Array("status\n".utf8)
        XCTAssertEqual(splitter.feed(megabyte), [.tooLong(64 * 1024), .line("status")])
    }

    func testQueueSetupResolvesLocationsAndKeepsTheirNames() {
        let setup = QueueSetup(entries: [QueueSetup.Entry(location: "/tmp/a b.ogg"), QueueSetup.Entry(location: "http://host/x", title: "X")])
        XCTAssertEqual(setup.items, [QueueItem(uri: "file:///tmp/a%20b.ogg"), QueueItem(uri: "http://host/x", title: "X")])
        XCTAssertEqual(setup.names["file:///tmp/a%20b.ogg"], "/tmp/a b.ogg")
        XCTAssertEqual(setup.failures, [])
        XCTAssertEqual(setup.arguments, ["/tmp/a b.ogg", "http://host/x"])
    }

    func testDirectoryExpansion() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("gstplay-tests-\(getpid())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        for name in ["b.ogg", "a.mp4", ".hidden"] { _ = FileManager.default.createFile(atPath: directory.appendingPathComponent(name).path, contents: Data()) }
        let arguments = [directory.path, "x.webm", "http://host/y"]
        let setup = QueueSetup.expanding(arguments.map { QueueSetup.Entry(location: $0) }, arguments: arguments)
        XCTAssertEqual(setup.items.compactMap { setup.names[$0.uri] },
                       [directory.appendingPathComponent("a.mp4").path, directory.appendingPathComponent("b.ogg").path, "x.webm", "http://host/y"])
        XCTAssertEqual(setup.arguments, arguments, "kept to name empty directories")
    }
}

/// The command the built-in input.conf binds to `key`, nil when unbound.
func bound(_ key: Key) -> ConsoleCommand? {
    InputBindings.builtin.binding(for: key)?.parsed
}
