import Backend
import Foundation
import TestSupport
import XCTest
@testable import BackendControl
@testable import gstplay

/// The one escaping function, fed every C0 and C1 control, DEL and the escape
/// sequences a hostile name would carry; and ``Output``, which every line passes. Pure, plus
/// `write(2)` to a pipe.
final class TerminalTextTests: XCTestCase {
    /// Every control ``TerminalText`` must escape: C0, DEL, C1.
    static let controls: [Unicode.Scalar] = (Array(0x00...0x1F) + [0x7F] + Array(0x80...0x9F)).map { Unicode.Scalar(UInt8($0)) }

    /// Sequences that drive a terminal: OSC title with BEL and with ST (ESC \), CSI clear screen,
    /// cursor moves, the 8-bit CSI/OSC/ST (C1), a carriage return and a newline to forge a line.
    static let sequences = ["\u{1B}]0;PWNED\u{07}", "\u{1B}]0;PWNED\u{1B}\\", "\u{1B}[2J", "\u{1B}[H\u{1B}[31m", "\u{9B}2J",
                            "\u{9D}0;PWNED\u{9C}", "\rgstplay: error: forged", "\ngstplay: error: forged", "\u{1B}P+q\u{1B}\\"]

    /// True when `text` has a scalar a terminal could act on.
    static func hasControl(_ text: String) -> Bool { text.unicodeScalars.contains { controls.contains($0) } }

    func testEveryControlBecomesVisible() {
        for scalar in Self.controls {
            let escaped = TerminalText.escaped("a" + String(Character(scalar)) + "b")
            XCTAssertEqual(escaped, "a\\u00" + String(format: "%02x", scalar.value) + "b")
            XCTAssertFalse(Self.hasControl(escaped))
        }
        XCTAssertEqual(TerminalText.escaped("\r\n"), "\\u000d\\u000a", "a CR LF (one Character) is two escapes")
    }

    func testEscapeSequencesAreDefused() {
        for sequence in Self.sequences {
            let escaped = TerminalText.escaped("/x/" + sequence + "x.mp4")
            XCTAssertFalse(Self.hasControl(escaped), escaped)
            XCTAssertFalse(escaped.contains("\n") || escaped.contains("\r"))
        }
        XCTAssertEqual(TerminalText.escaped("/x/\u{1B}]0;PWNED\u{07}\u{1B}[2J\rboom\nx.mp4"),
                       "/x/\\u001b]0;PWNED\\u0007\\u001b[2J\\u000dboom\\u000ax.mp4")
    }

    func testPrintableTextIsKept() {
        let text = "Ünïcødé ✓ 😀 e\u{301} \u{A0}\u{A0} \u{FFFD} back\\slash \"quotes\" 日本語 \u{200F}"
        XCTAssertEqual(TerminalText.escaped(text), text)
        XCTAssertEqual(ConsoleCommand.printable("a\u{1B}b"), "a\\u001bb")
        XCTAssertFalse(Self.hasControl(ConsoleCommand.printable(String(repeating: "\u{9B}", count: 50))), "cut after escaping")
    }

    /// Escaping a JSON line keeps it valid JSON that decodes to the same strings (the encoder
    /// escapes C0 itself but writes DEL and C1 raw).
    func testJSONLinesKeepTheirMeaning() throws {
        let hostile = String(String.UnicodeScalarView(Self.controls)) + Self.sequences.joined()
        let line = WireEvents.line(for: .error(PlayerError(kind: .resource, message: hostile)))
        let escaped = TerminalText.escaped(line)
        XCTAssertFalse(Self.hasControl(escaped))
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(escaped.utf8)) as? [String: Any])
        XCTAssertEqual(object["message"] as? String, hostile)
    }

    /// Every line written through ``Output`` — stdout, stderr, several lines, the status line,
    /// the direct writers — arrives with no control byte but Output's own.
    func testOutputWritesNoRawControlBytes() throws {
        var out: [Int32] = [0, 0], err: [Int32] = [0, 0]
        XCTAssertEqual(pipe(&out), 0)
        XCTAssertEqual(pipe(&err), 0)
        let output = Output(stdout: out[1], stderr: err[1])
        let hostile = "Now playing /x/" + String(String.UnicodeScalarView(Self.controls)) + Self.sequences.joined()
        output.out(hostile)
        output.err("gstplay: error: " + hostile)
        output.out(lines: [hostile, hostile])
        Output.writeLine(out[1], hostile)
        // ArgumentParser's messages keep their line breaks (a typed one too), nothing else.
        Output.writeLines(err[1], "Error: " + hostile.replacingOccurrences(of: "\n", with: "") + "\nUsage: gstplay\n")
        close(out[1]); close(err[1])
        for fd in [out[0], err[0]] {
            let bytes = Self.readAll(fd)
            close(fd)
            XCTAssertNotNil(String(validating: bytes, as: UTF8.self), "valid UTF-8")
            let text = String(decoding: bytes, as: UTF8.self)
            XCTAssertFalse(Self.hasControl(text.replacingOccurrences(of: "\n", with: "")), text)
            XCTAssertGreaterThanOrEqual(text.split(separator: "\n").count, 2)
            XCTAssertTrue(text.split(separator: "\n").allSatisfy { $0.hasPrefix("Now playing") || $0.hasPrefix("gstplay: error:")
                || $0.hasPrefix("Error:") || $0.hasPrefix("Usage:") }, "no forged line: \(text)")
        }
        var tty: [Int32] = [0, 0]
        XCTAssertEqual(pipe(&tty), 0)
        let statusOutput = Output(stdout: tty[1], stderr: tty[1])
        statusOutput.status("Playing " + hostile)
        statusOutput.closeStatus()
        close(tty[1])
        let drawn = String(decoding: Self.readAll(tty[0]), as: UTF8.self)
        close(tty[0])
        XCTAssertTrue(drawn.hasPrefix("\rPlaying ") && drawn.hasSuffix("\u{1B}[K\n"), drawn)
        XCTAssertFalse(Self.hasControl(String(drawn.dropFirst().dropLast(4))), "the status text itself is escaped")
    }

    func testWholeNumbersNeverTrap() {
        XCTAssertEqual(CFormat.whole(50.5), "51")
        XCTAssertEqual(CFormat.whole(-2.5), "-3")
        XCTAssertEqual(CFormat.whole(.nan), "nan")
        XCTAssertEqual(CFormat.whole(-.infinity), "-inf")
        XCTAssertEqual(CFormat.whole(1e19), "10000000000000000000")
    }

    static func readAll(_ fd: Int32) -> [UInt8] {
        var result: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = read(fd, &buffer, buffer.count)
            if count <= 0 { return result }
            result += buffer[0..<count]
        }
    }
}
