import Backend
import Foundation
import TestSupport
import XCTest
@testable import BackendControl
@testable import gstplay

/// Chapters on the command line: the `chapters` / `chapter` events and commands,
/// `--start-chapter`, and media without chapters, on `chapters.mkv` with the built binary (real
/// pipelines, fake sinks).
final class ChaptersCLITests: XCTestCase {
    private let chapters = GstplayProcess.fixture("chapters.mkv")
    private let oneFrame = 1.0 / 30

    private func events(_ stdout: String, _ name: String) -> [[String: Any]] {
        GstplayProcess.completeLines(stdout).compactMap(jsonObject).filter { $0["event"] as? String == name }
    }

    /// `--json` on the 3-chapter file (two of them nested in the middle one) reports every
    /// chapter with its title and start; `chapter next` lands at the next chapter's start within
    /// one frame and a `chapter` event names the chapter playing.
    func testJSONReportsTheChaptersAndChapterNextLandsOnTheNextStart() throws {
        let child = GstplayProcess(["--json", "--keep-open", chapters])
        try child.start()
        let listed = try XCTUnwrap(child.waitForJSON { $0["event"] as? String == "chapters" }, child.stdout)
        let entries = try XCTUnwrap(listed["chapters"] as? [[String: Any]])
        XCTAssertEqual(entries.map { $0["title"] as? String }, ["Opening", "Middle", "Middle, part one", "Middle, part two", "Closing"])
        XCTAssertEqual(entries.map { $0["start"] as? Double }, [0, 2, 2, 3, 4])
        XCTAssertEqual(entries.map { $0["end"] as? Double }, [2, 4, 3, 4, 6])
        XCTAssertEqual(entries.map { $0["depth"] as? Int }, [0, 0, 1, 1, 0])
        XCTAssertTrue(child.waitForLine(containing: #""event":"chapter","index":0"#), child.stdout)
        child.send(#"{"command":"chapters","request_id":1}"#)
        let list = try XCTUnwrap(child.waitForJSON { $0["request_id"] as? Int == 1 }?["data"] as? [String: Any], child.stdout)
        XCTAssertEqual((list["chapters"] as? [Any])?.count, 5)
        XCTAssertEqual(list["current"] as? Int, 0)

        child.send(#"{"command":["chapter","next"],"request_id":2}"#)
        let reply = try XCTUnwrap(child.waitForJSON { $0["request_id"] as? Int == 2 }, child.stdout)
        XCTAssertEqual(reply["error"] as? String, "success")
        let landing = try XCTUnwrap(reply["data"] as? [String: Any])
        XCTAssertEqual(landing["title"] as? String, "Middle")
        XCTAssertEqual(landing["index"] as? Int, 1)
        XCTAssertEqual(landing["position"] as? Double ?? -1, 2, accuracy: oneFrame, "within one frame of the chapter's start")
        XCTAssertNotNil(child.waitForJSON { $0["event"] as? String == "chapter" && $0["title"] as? String == "Middle, part one" }, child.stdout)

        child.send(#"{"command":["chapter","9"],"request_id":3}"#)
        child.send(#"{"command":["chapter","soon"],"request_id":4}"#)
        child.send(#"{"command":"quit","request_id":5}"#)
        XCTAssertEqual(child.waitForExit(), 0, child.stderr)
        let lines = child.jsonLines
        func error(_ id: Int) -> String? { lines.first { $0["request_id"] as? Int == id }?["error"] as? String }
        XCTAssertEqual(error(3), "chapter: no chapter 9 (the media has 5, 0-4)")
        XCTAssertEqual(error(4), "chapter: expected a chapter number (see 'chapters'), 'next' or 'prev', got 'soon'")
    }

    /// A file without chapters: no `chapters` event, an empty list, and each command one clear error.
    func testMediaWithoutChaptersAnswersWithAClearError() throws {
        let run = try GstplayProcess.run(["--json", GstplayProcess.fixture("vp8-opus-4s.webm")], input: [
            #"{"command":"chapters","request_id":1}"#, #"{"command":["chapter","next"],"request_id":2}"#,
            #"{"command":["chapter","0"],"request_id":3}"#, #"{"command":"quit","request_id":4}"#,
        ])
        XCTAssertEqual(run.status, 0, run.stderr)
        let lines = GstplayProcess.completeLines(run.stdout).compactMap(jsonObject)
        func error(_ id: Int) -> String? { lines.first { $0["request_id"] as? Int == id }?["error"] as? String }
        XCTAssertEqual(error(1), "chapters: the media has no chapters")
        XCTAssertEqual(error(2), "chapter: the media has no chapters")
        XCTAssertEqual(error(3), "chapter: the media has no chapters")
        XCTAssertTrue(events(run.stdout, "chapters").isEmpty && events(run.stdout, "chapter").isEmpty, run.stdout)
    }

    /// The text console: `chapters` prints the table (nested chapters indented), `chapter prev`
    /// and `chapter N` say where they went.
    func testTextConsoleListsAndMoves() throws {
        let child = GstplayProcess(["--keep-open", "--start-chapter", "3", chapters])
        try child.start()
        XCTAssertTrue(child.waitFor { _, err in err.contains("Chapter 4/5: Middle, part two") }, child.stderr)
        for line in ["chapters", "chapter prev", "chapter 4", "quit"] { child.send(line) }
        XCTAssertEqual(child.waitForExit(), 0, child.stderr)
        let lines = child.stdoutLines
        XCTAssertEqual(Array(lines.prefix(5)), [
            "  0  0:00:00-0:00:02  Opening",
            "  1  0:00:02-0:00:04  Middle",
            "  2  0:00:02-0:00:03    Middle, part one",
            "* 3  0:00:03-0:00:04    Middle, part two",
            "  4  0:00:04-0:00:06  Closing",
        ], "--start-chapter 3 started in chapter 3")
        XCTAssertEqual(Array(lines.dropFirst(5)), ["Chapter 2/5: Middle", "Chapter 5/5: Closing"])
        XCTAssertTrue(child.stderr.contains("Chapters: 5 (list them with 'chapters')"), child.stderr)
    }

    func testStartChapterStartsThereAndBadValuesAreUsageErrors() throws {
        let run = try GstplayProcess.run(["--json", "--start-chapter", "4", chapters])
        XCTAssertEqual(run.status, 0, run.stderr)
        let landed = try XCTUnwrap(events(run.stdout, "seek-done").first?["position"] as? Double, run.stdout)
        XCTAssertEqual(landed, 4, accuracy: oneFrame)
        for (arguments, message) in [(["--start-chapter", "x"], "--start-chapter must be a chapter number, 0 or more (got 'x')"),
                                     (["--start-chapter", "-1"], "--start-chapter must be a chapter number, 0 or more (got '-1')"),
                                     (["--start", "1", "--start-chapter", "1"], "--start and --start-chapter cannot be used together")] {
            let bad = try GstplayProcess.run(arguments + [chapters])
            XCTAssertEqual(bad.status, 2, "\(arguments)")
            XCTAssertTrue(bad.stderr.contains(message), bad.stderr)
        }
        let missing = GstplayProcess(["--start-chapter", "7", GstplayProcess.fixture("vp8-opus-4s.webm")])
        try missing.start()
        XCTAssertTrue(missing.waitFor { _, err in err.contains("start chapter: the media has no chapters; playing from the start") }, missing.stderr)
        missing.send("quit")
        XCTAssertEqual(missing.waitForExit(), 0, missing.stderr)
    }

    /// A gapless hand-over from an audio-only item to `chapters.mkv`: the idle video sink gets the
    /// next item's table of contents about a second before that item plays. Its chapters (and a
    /// chapter chosen from the first item's position) used to be announced then, during the first
    /// item ("Chapter 4/5: Middle, part two" while the audio file played on); they must come once
    /// the item is announced (its `uri` event), starting with its first chapter.
    func testTheNextItemsChaptersWaitForItsStart() throws {
        let run = try GstplayProcess.run(["--json", GstplayProcess.fixture("audio-only-4s.ogg"), chapters], timeout: 60)
        XCTAssertEqual(run.status, 0, run.stderr)
        let lines = GstplayProcess.completeLines(run.stdout).compactMap(jsonObject)
        let started = try XCTUnwrap(lines.firstIndex { $0["event"] as? String == "uri" && $0["index"] as? Int == 1 }, run.stdout)
        let early = lines[..<started].filter { line in
            let event = line["event"] as? String
            return (event == "chapters" && !((line["chapters"] as? [Any]) ?? []).isEmpty) || (event == "chapter" && line["title"] is String)
        }
        XCTAssertEqual(early.count, 0, "chapters of the next item while the first one played: \(early)")
        let after = lines[started...].filter { $0["event"] as? String == "chapter" && $0["title"] is String }.compactMap { $0["title"] as? String }
        XCTAssertEqual(after.first, "Opening", "the next item starts in its first chapter: \(after)")
        XCTAssertEqual(after.last, "Closing", "and plays through its chapters: \(after)")
    }

    // MARK: Pure parts

    func testParsingKeysAndWindowKeys() {
        XCTAssertEqual(try ConsoleCommand.parse("chapter 3").get(), .chapter(.index(3)))
        XCTAssertEqual(try ConsoleCommand.parse("CHAPTER Next").get(), .chapter(.next))
        XCTAssertEqual(try ConsoleCommand.parse("chapter previous").get(), .chapter(.previous))
        XCTAssertEqual(try ConsoleCommand.parse(words: ["chapters"]).get(), .chapters)
        XCTAssertEqual(ConsoleCommand.parse("chapter"), .failure(ConsoleError("chapter: missing argument (expected a chapter number, 'next' or 'prev')")))
        XCTAssertEqual(ConsoleCommand.parse("chapter -1"), .failure(ConsoleError("chapter: expected a chapter number (see 'chapters'), 'next' or 'prev', got '-1'")))
        XCTAssertEqual(ConsoleCommand.parse("chapters 2"), .failure(ConsoleError("chapters: unexpected argument '2'")))
        var decoder = KeyDecoder()
        XCTAssertEqual(decoder.feed(Array("\u{1B}[6~\u{1B}[5~][".utf8)), [.pageDown, .pageUp, .character("]"), .character("[")])
        XCTAssertEqual([Key.pageDown, .pageUp, .character("]"), .character("[")].map(bound),
                       [.chapter(.next), .chapter(.previous), .chapter(.next), .chapter(.previous)])
        XCTAssertEqual(["Next", "Prior", "bracketright", "bracketleft"].map(WindowKeyNames.name(forKeysym:)),
                       [Key.pageDown, .pageUp, .character("]"), .character("[")].map(\.name))
    }

    func testTheStatusLineShowsTheChapterPlaying() {
        var line = StatusLine()
        line.snapshot.state = .playing
        line.snapshot.position = MediaTime(seconds: 2.5)
        line.snapshot.duration = MediaTime(seconds: 6)
        let list = [Chapter(index: 0, uid: "a", title: "Opening", start: .zero), Chapter(index: 1, uid: "b", title: "Middle", start: MediaTime(seconds: 2))]
        XCTAssertFalse(line.render(columns: 100).contains("ch "), "no chapters section: nothing")
        line.snapshot.features[ChaptersSnapshot.self] = ChaptersSnapshot(chapters: list, current: 1)
        XCTAssertTrue(line.render(columns: 100).hasSuffix("] ch 2/2 Middle"), line.render(columns: 100))
    }
}
