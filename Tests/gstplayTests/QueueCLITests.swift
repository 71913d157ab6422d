import Foundation
import TestSupport
import XCTest

/// The play queue through the gstplay binary: gapless items, `--shuffle`,
/// `--loop=one`, and the queue commands, on real pipelines (fixtures, fake sinks).
final class QueueCLITests: XCTestCase {
    private let tones = ["gapless-440.ogg", "gapless-660.ogg", "gapless-880.ogg"].map(GstplayProcess.fixture)
    private let longer = ["vp8-opus-4s.webm", "audio-only-4s.ogg", "h264-aac-10s.mp4"].map(GstplayProcess.fixture)

    private func events(_ stdout: String, _ name: String) -> [[String: Any]] {
        GstplayProcess.completeLines(stdout).compactMap(jsonObject).filter { $0["event"] as? String == name }
    }

    private func reply(_ lines: [String], _ id: Int) -> [String: Any]? {
        lines.compactMap(jsonObject).first { $0["event"] == nil && $0["request_id"] as? Int == id }
    }

    private func uriIndexes(_ stdout: String) -> [Int] { events(stdout, "uri").compactMap { $0["index"] as? Int } }

    func testThreeAudioItemsFollowEachOtherGaplessly() throws {
        let result = try GstplayProcess.run(["--json"] + tones, input: [])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(uriIndexes(result.stdout), [0, 1, 2])
        XCTAssertEqual(events(result.stdout, "uri").compactMap { $0["uri"] as? String }, tones.map { URL(fileURLWithPath: $0).absoluteString })
        XCTAssertEqual(events(result.stdout, "uri").compactMap { $0["count"] as? Int }, [3, 3, 3])
        let items = events(result.stdout, "item")
        XCTAssertEqual(items.compactMap { $0["index"] as? Int }, [1, 2], "no `item` for the first")
        XCTAssertEqual(items.compactMap { $0["reason"] as? String }, ["ended", "ended"], "the queue moved on at each end")
        let ends = events(result.stdout, "eos").compactMap { $0["position"] as? Double }
        XCTAssertEqual(ends.count, 3, "one eos per item, as before the queue: \(ends)")
        for end in ends { XCTAssertEqual(end, 1.0, accuracy: 0.1, "each item ends at its duration") }
        XCTAssertEqual(events(result.stdout, "state").filter { $0["to"] as? String == "opening" }.count, 1,
                       "items 2 and 3 were handed over in about-to-finish, not loaded afresh")
        let playlist = try XCTUnwrap(events(result.stdout, "playlist").last)
        XCTAssertEqual(playlist["gapless"] as? Bool, true)
        XCTAssertEqual((playlist["items"] as? [Any])?.count, 3)
    }

    func testNoGaplessLoadsEachItemAfresh() throws {
        let result = try GstplayProcess.run(["--json", "--no-gapless"] + tones, input: [])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(uriIndexes(result.stdout), [0, 1, 2])
        XCTAssertEqual(events(result.stdout, "state").filter { $0["to"] as? String == "opening" }.count, 3)
        XCTAssertEqual(events(result.stdout, "playlist").last?["gapless"] as? Bool, false)
    }

    func testShuffleVisitsEachItemOncePerPass() throws {
        let child = GstplayProcess(["--json", "--shuffle", "--loop"] + tones)
        try child.start()
        XCTAssertTrue(child.waitFor(timeout: 30) { out, _ in self.uriIndexes(out).count >= 7 }, child.stdout)
        child.send("quit")
        XCTAssertEqual(child.waitForExit(), 0, child.stderr)
        let order = uriIndexes(child.stdout)
        print("QueueCLITests: shuffled play order \(order)")
        XCTAssertEqual(Set(order[0..<3]), [0, 1, 2], "first pass: every item once: \(order)")
        XCTAssertEqual(Set(order[3..<6]), [0, 1, 2], "second pass: every item once: \(order)")
        XCTAssertEqual(events(child.stdout, "playlist").last?["shuffle"] as? Bool, true)
    }

    func testLoopOneRepeatsTheItem() throws {
        let child = GstplayProcess(["--json", "--loop=one"] + tones.prefix(2))
        try child.start()
        XCTAssertTrue(child.waitFor(timeout: 30) { out, _ in self.uriIndexes(out).count >= 3 }, child.stdout)
        child.send("quit")
        XCTAssertEqual(child.waitForExit(), 0, child.stderr)
        XCTAssertEqual(Array(uriIndexes(child.stdout).prefix(3)), [0, 0, 0], "the first item repeats")
        let reasons = events(child.stdout, "item").prefix(2).compactMap { $0["reason"] as? String }
        XCTAssertEqual(reasons, ["ended", "ended"])
        XCTAssertEqual(events(child.stdout, "playlist").last?["loop"] as? String, "one")
    }

    func testQueueCommandsAndTheirErrors() throws {
        let saved = NSTemporaryDirectory() + "gstplay-queue-\(UUID().uuidString).m3u"
        defer { try? FileManager.default.removeItem(atPath: saved) }
        let child = GstplayProcess(["--json", "--keep-open", "--no-video"] + longer)
        try child.start()
        XCTAssertTrue(child.waitForLine(containing: #""to":"playing""#), child.stdout)
        var id = 0
        func send(_ words: [String]) -> [String: Any]? {
            id += 1
            let command = String(data: try! JSONSerialization.data(withJSONObject: ["command": words, "request_id": id]), encoding: .utf8)!
            child.send(command)
            let wanted = id
            XCTAssertTrue(child.waitFor { out, _ in self.reply(GstplayProcess.completeLines(out), wanted) != nil }, "\(words): \(child.stdout)")
            return reply(child.stdoutLines, wanted)
        }
        func error(_ words: [String]) -> String? { send(words)?["error"] as? String }

        let listed = try XCTUnwrap(send(["playlist"])?["data"] as? [String: Any])
        XCTAssertEqual(listed["current"] as? Int, 0)
        XCTAssertEqual((listed["items"] as? [[String: Any]])?.compactMap { $0["uri"] as? String },
                       longer.map { URL(fileURLWithPath: $0).absoluteString })
        XCTAssertEqual(error(["jump", "99"]), "jump: no item 99: the queue has 3 items (0–2)")
        XCTAssertEqual(error(["move", "0", "7"]), "move: no item 7: the queue has 3 items (0–2)")
        XCTAssertEqual(error(["remove", "-1"]), "remove: expected an item number (0, 1, … as 'playlist' lists them), got '-1'")
        XCTAssertEqual(error(["loop", "twice"]), "loop: expected 'none', 'one' or 'all', got 'twice'")
        XCTAssertEqual(error(["prev"]), "prev: already at the first item")

        XCTAssertEqual(error(["jump", "2"]), "success")
        XCTAssertTrue(child.waitForLine(containing: #""event":"item","index":2,"item_id":2,"reason":"skipped""#), child.stdout)
        XCTAssertEqual(error(["next"]), "next: already at the last item")
        XCTAssertEqual(error(["move", "2", "0"]), "success")
        XCTAssertEqual(error(["loop", "all"]), "success")
        XCTAssertEqual(error(["shuffle", "on"]), "success")
        XCTAssertEqual(error(["shuffle", "off"]), "success")
        let moved = try XCTUnwrap(send(["playlist"])?["data"] as? [String: Any])
        XCTAssertEqual(moved["current"] as? Int, 0, "the current item moved with its entry")
        XCTAssertEqual(moved["loop"] as? String, "all")
        XCTAssertEqual(moved["shuffle"] as? Bool, false)
        XCTAssertEqual((moved["items"] as? [[String: Any]])?.first?["uri"] as? String, URL(fileURLWithPath: longer[2]).absoluteString)
        XCTAssertEqual(error(["remove", "1"]), "success")
        XCTAssertEqual(error(["playlist", "save", saved]), "success")
        let text = try String(contentsOfFile: saved, encoding: .utf8)
        XCTAssertEqual(text, "#EXTM3U\n\(longer[2])\n\(longer[1])\n")

        XCTAssertEqual(error(["clear"]), "success")
        XCTAssertTrue(child.waitForLine(containing: #""event":"playlist","gapless":true,"items":[]"#), child.stdout)
        XCTAssertEqual(error(["jump", "0"]), "jump: no item 0: the queue is empty")
        XCTAssertEqual(error(["next"]), "next: the playlist is empty")
        XCTAssertEqual(error(["playlist", "save", saved]), "playlist save: the playlist is empty")
        XCTAssertEqual(error(["load", longer[1]]), "success")
        XCTAssertTrue(child.waitFor { out, _ in self.uriIndexes(out).last == 0 && self.events(out, "uri").count >= 3 }, child.stdout)
        child.send("quit")
        XCTAssertEqual(child.waitForExit(), 0, child.stderr)
        XCTAssertEqual(child.stderr, "", "no failure lines")
    }

    func testPlaylistListingMarksTheCurrentItemInTextMode() throws {
        let child = GstplayProcess(["--keep-open", "--no-video", longer[0], longer[1]])
        try child.start()
        XCTAssertTrue(child.waitFor { _, err in err.contains("Now playing \(self.longer[0]) (1/2)") }, child.stderr)
        child.send("jump 1")
        XCTAssertTrue(child.waitFor { _, err in err.contains("Now playing \(self.longer[1]) (2/2)") }, child.stderr)
        child.send("playlist")
        child.send("jump 5")
        XCTAssertTrue(child.waitFor { out, _ in GstplayProcess.completeLines(out).count >= 3 }, child.stdout)
        // Durations come as the items are discovered: the total and each item's length.
        let listed = child.stdoutLines.map {
            $0.replacingOccurrences(of: #", total [0-9:]+( \([0-9]+ unknown\))?$|  [0-9]+:[0-9]{2}:[0-9]{2}$"#, with: "", options: .regularExpression)
        }
        XCTAssertEqual(listed, ["playlist: 2 items, loop none, shuffle off, gapless on", "  0: \(longer[0])", "> 1: \(longer[1])"])
        XCTAssertTrue(child.waitFor { _, err in err.contains("error: jump: no item 5: the queue has 2 items (0–1)") }, child.stderr)
        child.send("quit")
        XCTAssertEqual(child.waitForExit(), 0, child.stderr)
    }

    func testAMissingItemFailsWithOneLineAndTheQueueGoesOn() throws {
        let missing = "Fixtures/not-here.ogg"
        let result = try GstplayProcess.run(["--quiet", missing, tones[0], "--loop=none"], input: [])
        XCTAssertEqual(result.status, 1)
        XCTAssertEqual(GstplayProcess.completeLines(result.stderr).filter { $0.contains("error") },
                       ["gstplay: error: \(missing): Resource not found."])
        XCTAssertEqual(try GstplayProcess.run(["--quiet", "--loop", missing, missing], input: []).status, 1,
                       "a looping queue of failing items stops")
    }
}
