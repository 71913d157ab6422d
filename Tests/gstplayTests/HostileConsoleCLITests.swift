import Foundation
import TestSupport
import XCTest

/// The CLI's bad-input corpus (``CLICorpus``, docs/RELIABILITY.md), the console during playback:
/// absurd seeks and rates, garbage bytes and lines, malformed JSON and JSON of the wrong shape.
final class HostileConsoleCLITests: XCTestCase, CLICorpus {
    private let webm = GstplayProcess.fixture("vp8-opus-4s.webm")

    func testHugeSeekEndsTheItem() throws {
        let started = Date()
        let child = try launch(["--json", webm])
        XCTAssertTrue(child.waitForLine(containing: #""to":"playing""#), child.stdout)
        child.send("seek 99999999")
        let outcome = finish("seek 99999999", child, started: started)
        assertSane(outcome)
        XCTAssertEqual(outcome.status, 0)
        XCTAssertEqual(outcome.errorLines, [])
        XCTAssertEqual(outcome.replies.map { $0["error"] as? String }, ["success"])
        XCTAssertEqual(outcome.events("eos").count, 1, "the seek past the end ends the item")
        // In media time, not wall time (a loaded or sanitized run starts slowly): the item had
        // played less than its 4 s when the seek ended it.
        let beforeSeek = outcome.events.prefix { $0["event"] as? String != "seek-done" }
        let played = beforeSeek.filter { $0["event"] as? String == "position" }.compactMap { $0["position"] as? Double }
        XCTAssertEqual(outcome.events("seek-done").count, 1, outcome.stdout)
        XCTAssertLessThan(played.max() ?? 0, 3.5, "well before the 4 s clip would have ended by itself")
    }

    func testNegativeRelativeSeekStopsAtTheStart() throws {
        let outcome = try console("seek -5 (relative, at 0:00)", json: true, send: [Data("seek -5\n".utf8)]) { out, _ in
            out.contains(#""event":"seek-done""#)
        }
        assertSane(outcome)
        XCTAssertEqual(outcome.status, 0)
        XCTAssertEqual(outcome.replies.first?["error"] as? String, "success")
        XCTAssertEqual(outcome.events("seek-done").first?["position"] as? Double ?? -1, 0, accuracy: 0.05)
    }

    func testNonFiniteSeekTargetsAreRefused() throws {
        for target in ["nan", "inf", "-inf", "1e400"] {
            let outcome = try console("seek \(target)", send: [Data("seek \(target)\n".utf8)]) { _, err in self.errorLine(err) }
            assertOneConsoleError(outcome, "seek: invalid time '\(target)' (expected seconds (90), [H:]M:SS[.f] (1:30, 1:02:03.5), +N/-N (relative) or N% (0-100))")
        }
    }

    func testZeroAndAbsurdRatesAreRefused() throws {
        let cases = [("rate 0", "rate 0.0 is outside the allowed range -1.0…2.0 (and must not be 0)"),
                     ("rate 1e9", "rate: invalid number '1e9'"),
                     ("rate 1000000000", "rate 1000000000.0 is outside the allowed range -1.0…2.0 (and must not be 0)"),
                     ("rate -1000", "rate -1000.0 is outside the allowed range -1.0…2.0 (and must not be 0)")]
        for (command, message) in cases {
            let outcome = try console(command, send: [Data((command + "\n").utf8)]) { _, err in self.errorLine(err) }
            assertOneConsoleError(outcome, message)
        }
    }

    func testBinaryBytesOnTheConsole() throws {
        let outcome = try console("binary bytes", send: [Data([0xFF, 0xFE, 0x00, 0x07, 0x1B, 0x5B, 0x32, 0x4A, 0x20, 0xC0, 0x0A])]) { _, err in
            self.errorLine(err)
        }
        assertOneConsoleError(outcome, "unknown command '\u{FFFD}\u{FFFD}\\u0000\\u0007\\u001b[2J' (type 'help' for the list)")
    }

    func testOneMegabyteLine() throws {
        let outcome = try console("1 MB line", send: [Data(repeating: UInt8(ascii: "a"), count: 1 << 20) + Data([0x0A])]) { _, err in
            self.errorLine(err)
        }
        assertOneConsoleError(outcome, "line too long (more than 65536 bytes); ignored")
    }

    func testUnknownCommand() throws {
        let outcome = try console("unknown command", send: [Data("frobnicate now\n".utf8)]) { _, err in self.errorLine(err) }
        assertOneConsoleError(outcome, "unknown command 'frobnicate' (type 'help' for the list)")
    }

    func testMalformedJSON() throws {
        let outcome = try console("malformed JSON", json: true, send: [Data("{\"command\": [\"seek\", \n".utf8)]) { out, _ in
            out.contains(#""request_id":null"#)
        }
        assertSane(outcome)
        XCTAssertEqual(outcome.status, 0)
        XCTAssertEqual(outcome.errorLines, [], "JSON mode answers on stdout")
        let reply = outcome.replies.first
        XCTAssertEqual(outcome.replies.count, 2, "one reply for the bad line, one for quit: \(outcome.replies)")
        XCTAssertTrue(reply?["request_id"] is NSNull)
        XCTAssertTrue((reply?["error"] as? String)?.hasPrefix("invalid JSON: ") ?? false, "\(String(describing: reply))")
    }

    func testJSONOfTheWrongShape() throws {
        let cases: [(String, String, Any)] = [
            (#"[1, 2]"#, #"a request must be a JSON object such as {"command": ["pause"], "request_id": 1}"#, NSNull()),
            (#"{"request_id": 4}"#, #"missing "command""#, 4),
            (#"{"command": {"seek": 1}, "request_id": "x"}"#, #""command" must be a string or an array of strings"#, "x"),
            (#"{"command": ["seek", [1]], "request_id": 6}"#, #""command" items must be strings or numbers"#, 6),
            (#"{"command": "pause", "request_id": {"a": 1}}"#, #""request_id" must be a number or a string"#, NSNull()),
            (#"{"command": ["seek", 1e300], "request_id": 8}"#, "seek: invalid time '1e+300'", 8),
            // A number beyond Double is not a JSON value gstplay can represent: the line is unreadable.
            (#"{"command": ["seek", 1e400], "request_id": 9}"#, "invalid JSON: unsupported JSON value", NSNull()),
        ]
        for (line, message, id) in cases {
            let outcome = try console("JSON of the wrong shape: \(line)", json: true, send: [Data((line + "\n").utf8)]) { out, _ in
                out.contains(#""error":""#)
            }
            assertSane(outcome)
            XCTAssertEqual(outcome.status, 0, line)
            XCTAssertEqual(outcome.errorLines, [], line)
            guard let reply = outcome.replies.first else { XCTFail("no reply to \(line)"); continue }
            XCTAssertTrue((reply["error"] as? String)?.hasPrefix(message) ?? false, "\(line): \(reply)")
            XCTAssertEqual("\(reply["request_id"] ?? "absent")", "\(id)", line)
        }
    }
}
