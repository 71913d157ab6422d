import Backend
import Foundation
import TestSupport
import XCTest
@testable import BackendControl
@testable import gstplay

/// `snapshot [path]` through the JSON protocol and the text console of the built binary, and
/// the `S` key binding.
final class SnapshotCommandTests: XCTestCase {
    private func pngSize(_ path: String) -> [Int]? {
        guard let data = FileManager.default.contents(atPath: path), data.count > 24,
              Array(data.prefix(4)) == [0x89, 0x50, 0x4E, 0x47] else { return nil }
        let bytes = [UInt8](data)
        func be32(_ at: Int) -> Int { bytes[at..<(at + 4)].reduce(0) { $0 << 8 | Int($1) } }
        return [be32(16), be32(20)]
    }

    func testJSONSnapshotWhilePlayingAndPaused() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("gstplay-snapcmd-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let child = GstplayProcess(["--json", GstplayProcess.fixture("par-64-45.mkv"), "--keep-open"])
        try child.start()
        XCTAssertTrue(child.waitForLine(containing: #""to":"playing""#), child.stdout)
        child.send(#"{"command":["snapshot","\#(directory.path)"],"request_id":1}"#)
        XCTAssertTrue(child.waitForLine(containing: #""request_id":1"#), child.stdout)
        child.send(#"{"command":"pause","request_id":2}"#)
        XCTAssertTrue(child.waitForLine(containing: #""to":"paused""#), child.stdout)
        let paused = directory.appendingPathComponent("paused.png").path
        child.send(#"{"command":["snapshot","\#(paused)"],"request_id":3}"#)
        child.send(#"{"command":["snapshot","/nonexistent-dir/x.png"],"request_id":4}"#)
        child.send(#"{"command":"quit","request_id":5}"#)
        XCTAssertEqual(child.waitForExit(), 0, child.stderr)

        let replies = child.stdoutLines.compactMap(jsonObject).filter { $0["request_id"] != nil }
        func reply(_ id: Int) -> [String: Any]? { replies.first { $0["request_id"] as? Int == id } }
        let playing = try XCTUnwrap(reply(1)?["data"] as? [String: Any], "\(replies)")
        let playingPath = try XCTUnwrap(playing["path"] as? String)
        XCTAssertTrue(playingPath.hasPrefix(directory.path + "/gstplay-par-64-45-00-00-0"), playingPath)
        XCTAssertTrue(playingPath.hasSuffix(".png"))
        XCTAssertEqual(playing["width"] as? Int, 1024)
        XCTAssertEqual(playing["height"] as? Int, 576)
        XCTAssertEqual(pngSize(playingPath), [1024, 576])

        XCTAssertEqual(reply(3)?["error"] as? String, "success")
        XCTAssertEqual((reply(3)?["data"] as? [String: Any])?["path"] as? String, paused)
        XCTAssertEqual(pngSize(paused), [1024, 576])
        let failed = try XCTUnwrap(reply(4)?["error"] as? String)
        XCTAssertTrue(failed.hasPrefix("snapshot: cannot write /nonexistent-dir/x.png"), failed)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: directory.path).count, 2, "no temporary files")
    }

    func testTextConsoleSnapshotWithoutVideo() throws {
        let run = try GstplayProcess.run([GstplayProcess.fixture("audio-only-4s.ogg")],
                                         input: ["snapshot /tmp/never-written.png", "quit"])
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: "/tmp/never-written.png"))
        XCTAssertTrue(run.stderr.contains("error: snapshot: "), run.stderr)
    }

    func testCapitalSIsTheSnapshotKey() {
        XCTAssertEqual(bound(.character("S")), .snapshot(nil))
        XCTAssertNotEqual(bound(.character("s")), .snapshot(nil), "lower-case s is for subtitles")
        XCTAssertTrue(InputBindings.builtin.keyNames.contains("S"))
        XCTAssertEqual(ConsoleCommand.parse("snapshot"), .success(.snapshot(nil)))
        XCTAssertEqual(ConsoleCommand.parse("snapshot shots/a b.png"), .success(.snapshot("shots/a b.png")))
        XCTAssertEqual(ConsoleCommand.parse(words: ["snapshot", "x.jpg"]), .success(.snapshot("x.jpg")))
        XCTAssertEqual(ConsoleCommand.parse("snapshot --osd"), .success(.snapshot(nil, osd: true)))
        XCTAssertEqual(ConsoleCommand.parse(words: ["snapshot", "--osd", "x.jpg"]), .success(.snapshot("x.jpg", osd: true)))
    }
}
