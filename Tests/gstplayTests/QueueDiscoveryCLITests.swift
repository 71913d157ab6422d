import Foundation
import TestSupport
import XCTest

/// Queue discovery through the binary: `playlist` with every item's duration before it plays, and the
/// playlist events of a 10,000-item queue sent as changes, not as the whole list.
final class QueueDiscoveryCLITests: XCTestCase {
    private var dir = ""

    override func setUpWithError() throws {
        dir = NSTemporaryDirectory() + "gstplay-discovery-cli-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(atPath: dir) }

    private func write(_ name: String, _ text: String) throws -> String {
        let path = dir + "/" + name
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    private func lineIndex(_ lines: [String], _ predicate: (String) -> Bool) -> Int? { lines.firstIndex(where: predicate) }

    func testPlaylistShowsAllThreeDurationsBeforeTheSecondItemPlays() throws {
        let list = try write("three.m3u", """
        #EXTM3U
        #EXTINF:-1,Sine from the list
        \(TestMedia.audioOnly)
        \(TestMedia.vp8)
        \(TestMedia.path("mp3-4s.mp3"))
        """)
        let child = GstplayProcess(["--json", list])
        try child.start()
        defer { child.send("quit"); _ = child.waitForExit() }
        XCTAssertTrue(child.waitFor { out, _ in out.components(separatedBy: #""event":"playlist-update""#).count > 3 }, child.stdout)
        child.send(#"{"command":"playlist","request_id":"p"}"#)
        let reply = try XCTUnwrap(child.waitForJSON { $0["request_id"] as? String == "p" }, child.stdout)
        let data = try XCTUnwrap(reply["data"] as? [String: Any])
        let items = try XCTUnwrap(data["items"] as? [[String: Any]])
        XCTAssertEqual(items.count, 3)
        for item in items {
            XCTAssertEqual(try XCTUnwrap(item["duration"] as? Double, "\(item)"), 4, accuracy: 0.15)
            XCTAssertEqual(item["playable"] as? Bool, true)
        }
        XCTAssertEqual(items[0]["title"] as? String, "Sine from the list", "the playlist's title is kept")
        XCTAssertEqual(items.map { $0["has_video"] as? Bool }, [false, true, false])
        XCTAssertEqual(try XCTUnwrap(data["total_duration"] as? Double), 12, accuracy: 0.4)
        XCTAssertEqual(data["known_durations"] as? Int, 3)
        // …all of it before the second item began.
        let lines = child.stdoutLines
        let replyLine = try XCTUnwrap(lineIndex(lines) { $0.contains(#""request_id":"p""#) })
        if let second = lineIndex(lines, { $0.contains(#""event":"uri""#) && $0.contains(#""index":1"#) }) {
            XCTAssertLessThan(replyLine, second, "the durations came before the second item played")
        }
    }

    func testATenThousandItemQueueSendsChangesNotTheWholeList() throws {
        let entry = TestMedia.audioOnly + "\n"
        let list = try write("long.m3u", "#EXTM3U\n" + String(repeating: entry, count: 10_000))
        let child = GstplayProcess(["--json", "--keep-open", list])
        try child.start()
        defer { child.send("quit"); _ = child.waitForExit() }
        XCTAssertTrue(child.waitForLine(containing: #""to":"playing""#), child.stderr)
        let before = child.stdoutLines.count
        for request in 1...3 { child.send(#"{"command":"next","request_id":\#(request)}"#) }
        XCTAssertTrue(child.waitFor { out, _ in out.contains(#""request_id":3"#) && out.components(separatedBy: #""event":"uri""#).count > 3 })
        XCTAssertTrue(child.waitFor { out, _ in out.components(separatedBy: #""event":"playlist-update""#).count > 6 })
        let lines = child.stdoutLines
        let insert = try XCTUnwrap(lines.first { $0.contains(#""event":"playlist-insert""#) })
        XCTAssertEqual((jsonObject(insert)?["items"] as? [Any])?.count, 10_000, "the list once, when it is set")
        XCTAssertFalse(lines.contains { $0.contains(#""event":"playlist","#) }, "no whole-list event for a long queue")
        let later = lines[before...]
        let largest = later.map(\.utf8.count).max() ?? 0
        XCTAssertTrue(later.contains { $0.contains(#""event":"playlist-state""#) && $0.contains(#""count":10000"#) })
        print("QueueDiscoveryCLITests: playlist-insert \(insert.utf8.count) bytes once; largest line after it \(largest) bytes; "
              + "\(later.map(\.utf8.count).reduce(0, +)) bytes in \(later.count) lines for 3 'next' and the discovery so far")
        XCTAssertLessThan(largest, 2_048, "each change event is small: \(later.max { $0.utf8.count < $1.utf8.count } ?? "")")
    }

    func testAnItemFoundUnplayableIsReportedAndSkippedWithoutLoading() throws {
        let garbage = TestMedia.garbage, last = TestMedia.path("gapless-440.ogg")
        let child = GstplayProcess(["--json", "--keep-open", TestMedia.short, garbage, last])
        try child.start()
        XCTAssertTrue(child.waitFor { out, _ in
            GstplayProcess.completeLines(out).contains { $0.contains(#""event":"playlist-update","index":1"#) && $0.contains(#""playable":false"#) }
        }, child.stdout)
        child.send(#"{"command":"next","request_id":1}"#)
        XCTAssertTrue(child.waitFor { out, _ in
            GstplayProcess.completeLines(out).contains { $0.contains(#""event":"uri""#) && $0.contains(#""index":2"#) }
        }, child.stdout)
        child.send("quit")
        XCTAssertEqual(child.waitForExit(), 1, "a failed item: exit code 1 as before")
        let lines = child.stdoutLines
        XCTAssertTrue(lines.contains { $0.contains(#""event":"error""#) && $0.contains(URL(fileURLWithPath: garbage).absoluteString) }, child.stdout)
        XCTAssertFalse(lines.contains { $0.contains(#""event":"uri""#) && $0.contains(#""index":1"#) }, "never loaded: \(child.stdout)")
        XCTAssertTrue(child.stderr.contains("gstplay: error: \(garbage): "), child.stderr)
    }
}
