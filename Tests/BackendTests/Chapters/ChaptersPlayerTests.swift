import Backend
import Foundation
import TestSupport
import XCTest

extension TestMedia {
    /// 6 s Matroska (VP8 + Vorbis) with a TOC: Opening 0-2, Middle 2-4 (nested: part one 2-3,
    /// part two 3-4), Closing 4-6 s.
    static let chapters = path("chapters.mkv")
}

extension PlayerEvent {
    var chaptersChanged: [Chapter]? { if case .chaptersChanged(let list)? = chaptersEvent { return list } else { return nil } }
    var chapterChanged: Chapter?? { if case .chapterChanged(let chapter)? = chaptersEvent { return .some(chapter) } else { return nil } }
}

/// Chapters on real pipelines (playbin, fake sinks): the TOC of `chapters.mkv` read and
/// flattened, seeks to chapters, the current chapter, a file without chapters.
final class ChaptersPlayerTests: XCTestCase {
    private let oneFrame = 1.0 / 30

    /// A paused player with `chapters.mkv` prerolled, and its recorder.
    private func prerolledPlayer(configure: (inout PlayerConfiguration) -> Void = { _ in },
                                 before: (Player) -> Void = { _ in }) async throws -> (Player, EventRecorder) {
        let recorder = EventRecorder()
        let player = Player.forTesting(recorder) { $0.autoplay = false; configure(&$0) }
        before(player)
        try await player.loadAsync(TestMedia.chapters)
        return (player, recorder)
    }

    /// The snapshot shows chapter `title` as current (the getters see a handler's changes once it
    /// returned, which can be just after an async command resumed its caller).
    private func assertCurrent(_ player: Player, _ title: String, _ message: String = "", line: UInt = #line) {
        XCTAssertTrue(eventually { player.currentChapter?.title == title },
                      "current chapter \(player.currentChapter?.title ?? "none"), expected \(title) \(message)", line: line)
    }

    func testTheTableOfContentsIsReadFlattenedWithDepthTitlesAndTimes() async throws {
        let (player, recorder) = try await prerolledPlayer()
        defer { player.shutdown() }
        let published = try XCTUnwrap(recorder.waitForValue("chaptersChanged", { $0.chaptersChanged }))
        XCTAssertEqual(published.map(\.title), ["Opening", "Middle", "Middle, part one", "Middle, part two", "Closing"])
        XCTAssertEqual(published.map(\.depth), [0, 0, 1, 1, 0])
        XCTAssertEqual(published.map(\.index), [0, 1, 2, 3, 4])
        XCTAssertEqual(published.map(\.start.seconds), [0, 2, 2, 3, 4])
        XCTAssertEqual(published.map { $0.end?.seconds }, [2, 4, 3, 4, 6])
        XCTAssertEqual(published.map(\.uid), ["opening", "middle", "middle-1", "middle-2", "closing"])
        XCTAssertTrue(published.allSatisfy { $0.edition == 0 && $0.language == nil }, "one edition; matroskamux writes no ChapLanguage")
        XCTAssertEqual(player.chapters, published, "the getter answers with what was published")
        XCTAssertEqual(player.currentChapter?.title, "Opening")
        XCTAssertEqual(recorder.events.compactMap(\.chaptersChanged).count, 1, "one event although each sink posts the TOC")
    }

    func testNextChapterLandsOnTheNextStartWithinOneFrameAndBecomesCurrent() async throws {
        let (player, recorder) = try await prerolledPlayer()
        defer { player.shutdown() }
        let first = try await player.nextChapterAsync()
        XCTAssertEqual(first.chapter.title, "Middle")
        XCTAssertEqual(first.position.seconds, 2, accuracy: oneFrame)
        assertCurrent(player, "Middle, part one", "the deepest chapter containing the position")
        let second = try await player.nextChapterAsync()
        XCTAssertEqual(second.chapter.title, "Middle, part two")
        XCTAssertEqual(second.position.seconds, 3, accuracy: oneFrame)
        assertCurrent(player, "Middle, part two")
        recorder.waitFor("three chapterChanged events") { $0.compactMap(\.chapterChanged).count >= 3 }
        let changes = recorder.events.compactMap(\.chapterChanged).map { $0?.title }
        XCTAssertEqual(changes, ["Opening", "Middle, part one", "Middle, part two"])
    }

    func testNextChapterAtTheLastChapterThrowsAndChapterNSeeksThere() async throws {
        let (player, _) = try await prerolledPlayer()
        defer { player.shutdown() }
        let last = try await player.seekAsync(toChapter: 4)
        XCTAssertEqual(last.position.seconds, 4, accuracy: oneFrame)
        do {
            _ = try await player.nextChapterAsync()
            XCTFail("a next chapter after the last")
        } catch {
            XCTAssertEqual(error.kind, .invalidArgument)
            XCTAssertEqual(error.message, "no next chapter (chapter 4, \"Closing\", is the last)")
        }
        XCTAssertThrowsError(try player.seek(toChapter: 5)) { error in
            XCTAssertEqual((error as? PlayerError)?.message, "no chapter 5 (the media has 5, 0-4)")
        }
    }

    /// Within the first 2 s of a chapter, "previous" goes to the chapter before (one that starts
    /// earlier: the parent sharing the current chapter's start does not count).
    func testPreviousChapterWithinTwoSecondsGoesToTheOneBefore() async throws {
        let (player, _) = try await prerolledPlayer()
        defer { player.shutdown() }
        try await player.seekAsync(to: MediaTime(seconds: 3.5))
        assertCurrent(player, "Middle, part two")
        let back = try await player.previousChapterAsync()
        XCTAssertEqual(back.chapter.title, "Middle", "of chapters sharing a start, the outermost")
        XCTAssertEqual(back.position.seconds, 2, accuracy: oneFrame)
        assertCurrent(player, "Middle, part one", "the deepest chapter at 2 s")
        let again = try await player.previousChapterAsync()
        XCTAssertEqual(again.chapter.title, "Opening", "Middle starts with part one: not before it")
        XCTAssertEqual(again.position.seconds, 0, accuracy: oneFrame)
    }

    func testStartChapterStartsTheLoadThere() async throws {
        let (player, recorder) = try await prerolledPlayer(before: { $0.setStartChapter(3) })
        defer { player.shutdown() }
        let landed = try XCTUnwrap(recorder.waitForValue("seekDone", { $0.seekDone }))
        XCTAssertEqual(landed.seconds, 3, accuracy: oneFrame)
        assertCurrent(player, "Middle, part two")
    }

    func testAStartChapterTheMediaLacksWarnsAndPlaysFromTheStart() async throws {
        let (player, recorder) = try await prerolledPlayer(before: { $0.setStartChapter(9) })
        defer { player.shutdown() }
        let warning = try XCTUnwrap(recorder.waitForValue("warning") { event -> PlayerError? in
            if case .warning(let warning) = event { return warning } else { return nil }
        })
        XCTAssertEqual(warning.message, "start chapter: no chapter 9 (the media has 5, 0-4); playing from the start")
        assertCurrent(player, "Opening")
    }

    func testMediaWithoutChaptersHasAnEmptyListAndTheCommandsSaySo() async throws {
        let recorder = EventRecorder()
        let player = Player.forTesting(recorder) { $0.autoplay = false }
        defer { player.shutdown() }
        try await player.loadAsync(TestMedia.vp8)
        XCTAssertEqual(player.chapters, [])
        XCTAssertNil(player.currentChapter)
        XCTAssertThrowsError(try player.nextChapter()) { XCTAssertEqual(($0 as? PlayerError)?.message, "the media has no chapters") }
        XCTAssertThrowsError(try player.previousChapter()) { XCTAssertEqual(($0 as? PlayerError)?.message, "the media has no chapters") }
        XCTAssertThrowsError(try player.seek(toChapter: 0)) { XCTAssertEqual(($0 as? PlayerError)?.message, "the media has no chapters") }
        do {
            _ = try await player.nextChapterAsync()
            XCTFail("a chapter in media without chapters")
        } catch {
            XCTAssertEqual(error.message, "the media has no chapters")
        }
        XCTAssertFalse(recorder.events.contains { $0.chaptersEvent != nil }, "no chapter events for media without a TOC")
    }

    func testLoadingOtherMediaEmptiesTheList() async throws {
        let (player, recorder) = try await prerolledPlayer()
        defer { player.shutdown() }
        XCTAssertEqual(player.chapters.count, 5)
        try await player.loadAsync(TestMedia.vp8)
        XCTAssertEqual(player.chapters, [])
        XCTAssertEqual(recorder.events.compactMap(\.chaptersChanged).last, [])
        XCTAssertEqual(recorder.events.compactMap(\.chapterChanged).last, .some(nil))
    }
}
