import Foundation
import TestSupport
import XCTest

/// The JSON wire format is fixed by golden files (Tests/gstplayTests/Golden), captured from the
/// CLI before its JSON moved to `Codable`:
/// - `values.jsonl`: one line per event and reply kind, encoded from fixed values, compared byte
///   for byte;
/// - `session.jsonl`: a real `--json` session on the fixtures (every event and reply a local run
///   produces), the last line of each kind compared after normalising the values that vary
///   between runs (positions, timings, frame counts, paths, versions).
///
/// `GSTPLAY_UPDATE_GOLDEN=1 swift test --filter GoldenWireTests` rewrites the files.
final class GoldenWireTests: XCTestCase {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Golden")
    private var updating: Bool { ProcessInfo.processInfo.environment["GSTPLAY_UPDATE_GOLDEN"] == "1" }

    // MARK: Values

    func testEncodedValuesMatchTheGoldenLines() throws {
        let lines = GoldenWireLines.all().map { "\($0.name) \($0.line)" }
        let file = Self.directory.appendingPathComponent("values.jsonl")
        if updating { try (lines.joined(separator: "\n") + "\n").write(to: file, atomically: true, encoding: .utf8) }
        let golden = try Self.lines(of: file)
        XCTAssertEqual(lines.count, golden.count, "one line per sample")
        for (line, expected) in zip(lines, golden) { XCTAssertEqual(line, expected) }
        for (name, line) in GoldenWireLines.all() {
            XCTAssertNotNil(jsonObject(line), "\(name) is a JSON object")
            XCTAssertFalse(line.contains("\n"), name)
        }
    }

    // MARK: A real session

    /// Drives `gstplay --json --keep-open <missing> <webm>` through every command and returns its stdout lines.
    private func runSession() throws -> (lines: [String], status: Int32?) {
        let child = GstplayProcess(["--json", "--keep-open", "Fixtures/does-not-exist.webm", GstplayProcess.fixture("vp8-opus-4s.webm")])
        try child.start()
        func reply(_ id: String) -> (String, String) -> Bool {
            { out, _ in GstplayProcess.completeLines(out).contains { $0.contains("\"request_id\":\(id)") } }
        }
        XCTAssertTrue(child.waitForLine(containing: #""to":"playing""#), child.stdout)
        child.send(#"{"command":"status","request_id":1}"#)
        XCTAssertTrue(child.waitFor(reply("1")))
        child.send(#"{"command":["seek","1"],"request_id":2}"#)
        XCTAssertTrue(child.waitForLine(containing: #""event":"seek-done""#), child.stdout)
        child.send("volume 50")
        XCTAssertTrue(child.waitForLine(containing: #""event":"volume""#), child.stdout)
        child.send(#"{"command":["rate","1.5"],"request_id":3}"#)
        XCTAssertTrue(child.waitForLine(containing: #""event":"rate""#), child.stdout)
        child.send(#"{"command":["rate","3"],"request_id":4}"#)
        child.send("{oops")
        child.send(#"{"command":["mute"],"request_id":"m"}"#)
        child.send(#"{"command":"help","request_id":6}"#)
        XCTAssertTrue(child.waitFor(reply("6")))
        XCTAssertTrue(child.waitForLine(containing: #""event":"statistics""#), child.stdout)
        XCTAssertTrue(child.waitForLine(containing: #""event":"eos""#), child.stdout)
        child.send(#"{"command":"stats","request_id":7}"#)
        XCTAssertTrue(child.waitFor(reply("7")))
        child.send(#"{"command":"quit","request_id":8}"#)
        let status = child.waitForExit()
        return (child.stdoutLines, status)
    }

    func testSessionMatchesTheGoldenLines() throws {
        let (lines, status) = try runSession()
        XCTAssertEqual(status, 1, "the missing item failed")
        var lastOfKind: [String: String] = [:]
        var order: [String] = []
        for line in lines {
            let key = Self.kind(of: line)
            if lastOfKind[key] == nil { order.append(key) }
            lastOfKind[key] = Self.normalised(line)
        }
        let file = Self.directory.appendingPathComponent("session.jsonl")
        if updating {
            try (order.sorted().map { "\($0) \(lastOfKind[$0]!)" }.joined(separator: "\n") + "\n").write(to: file, atomically: true, encoding: .utf8)
        }
        var golden: [String: String] = [:]
        for entry in try Self.lines(of: file) {
            let space = entry.firstIndex(of: " ")!
            golden[String(entry[..<space])] = String(entry[entry.index(after: space)...])
        }
        XCTAssertEqual(Set(lastOfKind.keys), Set(golden.keys), "the same kinds of lines; stdout:\n\(lines.joined(separator: "\n"))")
        for (key, expected) in golden.sorted(by: { $0.key < $1.key }) {
            XCTAssertEqual(lastOfKind[key], expected, key)
        }
    }

    // MARK: Helpers

    static func lines(of file: URL) throws -> [String] {
        GstplayProcess.completeLines(try String(contentsOf: file, encoding: .utf8))
    }

    /// `event:<name>` for events, `reply:<request_id>` (or `reply:text`) for replies.
    static func kind(of line: String) -> String {
        guard let object = jsonObject(line) else { return "unparsable" }
        if let event = object["event"] as? String { return "event:" + event }
        if object["request_id"] == nil { return "reply:text" }
        if let id = object["request_id"] as? String { return "reply:" + id }
        if let id = object["request_id"] as? Int { return "reply:\(id)" }
        return "reply:null"
    }

    /// The line with the values that vary between runs replaced: numbers under the listed keys
    /// become `#`, the package root in paths and URIs becomes `<root>`, versions become `<v>`.
    static func normalised(_ line: String) -> String {
        var text = line.replacingOccurrences(of: GstplayProcess.packageRoot.path, with: "<root>")
        let numberKeys = ["position", "last_seek_latency_ms", "buffering_time_ms", "rendered_frames", "dropped_frames",
                          "bitrate", "average_bitrate"]
        for key in numberKeys {
            text = text.replacingOccurrences(of: #""\#(key)":-?[0-9][0-9.e+-]*"#, with: #""\#(key)":#"#, options: .regularExpression)
        }
        // "date": the fixture's muxing date (Matroska DateUTC), which `make fixtures` changes.
        for key in ["version", "gstreamer", "date"] {
            text = text.replacingOccurrences(of: #""\#(key)":"[^"]*""#, with: #""\#(key)":"<v>""#, options: .regularExpression)
        }
        return text
    }
}
