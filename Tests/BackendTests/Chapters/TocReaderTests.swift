import Backend
import BackendCore
import CGStreamer
import XCTest

/// ``TocReader`` on tables of contents built with GStreamer's own TOC API (what a demuxer
/// posts), and ``ChapterNavigation``'s rules on plain chapter lists.
final class TocReaderTests: XCTestCase {
    private func entry(_ type: GstTocEntryType, _ uid: String, _ start: Double?, _ stop: Double?,
                       title: String? = nil, language: String? = nil) -> OpaquePointer {
        let entry = gst_toc_entry_new(type, uid)!
        let nanos = { (seconds: Double?) in seconds.map { gint64(($0 * 1e9).rounded()) } ?? -1 }
        gst_toc_entry_set_start_stop_times(entry, nanos(start), nanos(stop))
        var fields: [String] = []
        if let title { fields.append("title=(string)\"\(title)\"") }
        if let language { fields.append("language-code=(string)\(language)") }
        if !fields.isEmpty { gst_toc_entry_set_tags(entry, gst_tag_list_new_from_string("taglist, " + fields.joined(separator: ", "))) }
        return entry
    }

    func testEditionsNestingLanguagesAndMissingEnds() {
        GStreamerRuntime.ensureInitialized()
        let toc = gst_toc_new(GST_TOC_SCOPE_GLOBAL)!
        defer { gst_mini_object_unref(UnsafeMutablePointer<GstMiniObject>(toc)) }
        let first = entry(GST_TOC_ENTRY_TYPE_EDITION, "e1", 0, 10)
        let part = entry(GST_TOC_ENTRY_TYPE_CHAPTER, "a", 0, nil, title: "Teil eins", language: "deu")
        gst_toc_entry_append_sub_entry(part, entry(GST_TOC_ENTRY_TYPE_CHAPTER, "a1", 0, nil, title: "Anfang"))
        gst_toc_entry_append_sub_entry(part, entry(GST_TOC_ENTRY_TYPE_CHAPTER, "a2", 3, nil))
        gst_toc_entry_append_sub_entry(first, part)
        gst_toc_entry_append_sub_entry(first, entry(GST_TOC_ENTRY_TYPE_CHAPTER, "b", 6, nil, title: "Part two", language: "eng"))
        gst_toc_append_entry(toc, first)
        let second = entry(GST_TOC_ENTRY_TYPE_EDITION, "e2", nil, nil)
        gst_toc_entry_append_sub_entry(second, entry(GST_TOC_ENTRY_TYPE_CHAPTER, "c", 1, 2, title: "Director's cut"))
        gst_toc_append_entry(toc, second)

        let chapters = TocReader.chapters(of: toc)
        XCTAssertEqual(chapters.map(\.uid), ["a", "a1", "a2", "b", "c"])
        XCTAssertEqual(chapters.map(\.title), ["Teil eins", "Anfang", nil, "Part two", "Director's cut"])
        XCTAssertEqual(chapters.map(\.language), ["deu", nil, nil, "eng", nil])
        XCTAssertEqual(chapters.map(\.depth), [0, 1, 1, 0, 0])
        XCTAssertEqual(chapters.map(\.edition), [0, 0, 0, 0, 1])
        XCTAssertEqual(chapters.map(\.start.seconds), [0, 0, 3, 6, 1])
        XCTAssertEqual(chapters.map { $0.end?.seconds }, [6, 3, 6, 10, 2], "a missing end: the next chapter's start, else the parent's end")
        XCTAssertEqual(chapters[2].displayTitle, "Chapter 3")
    }

    private let list: [Chapter] = [
        Chapter(index: 0, uid: "0", title: "A", start: .zero, end: MediaTime(seconds: 10)),
        Chapter(index: 1, uid: "1", title: "B", start: MediaTime(seconds: 10), end: MediaTime(seconds: 20)),
        Chapter(index: 2, uid: "2", title: "B1", start: MediaTime(seconds: 10), end: MediaTime(seconds: 15), depth: 1),
        Chapter(index: 3, uid: "3", title: "C", start: MediaTime(seconds: 25), end: nil),
    ]

    func testCurrentIsTheDeepestChapterContainingThePosition() {
        XCTAssertEqual(ChapterNavigation.current(in: list, at: MediaTime(seconds: 12)), 2)
        XCTAssertEqual(ChapterNavigation.current(in: list, at: MediaTime(seconds: 17)), 1)
        XCTAssertNil(ChapterNavigation.current(in: list, at: MediaTime(seconds: 22)), "a gap")
        XCTAssertEqual(ChapterNavigation.current(in: list, at: MediaTime(seconds: 9.998)), 2, "a landing 2 ms early counts")
        XCTAssertEqual(ChapterNavigation.current(in: list, at: MediaTime(seconds: 99)), 3, "no end: to the end of the media")
    }

    func testPreviousAfterTwoSecondsRestartsTheChapterAndWithinGoesBack() {
        let previous = { (seconds: Double) in try? ChapterNavigation.previous(in: self.list, at: MediaTime(seconds: seconds)).get().title }
        XCTAssertEqual(previous(13), "B1", "3 s into B1: its own start")
        XCTAssertEqual(previous(11.5), "A", "1.5 s into B1: the one before (B shares its start)")
        XCTAssertEqual(previous(26), "B", "1 s into C: the one before it, B (B1 ended within B)")
        XCTAssertEqual(previous(1), "A", "the first chapter has nothing before: its own start")
        XCTAssertEqual(previous(22), "B", "in a gap: the last chapter begun")
    }

    func testNextSkipsAChildSharingTheStartAndFailsAtTheEnd() {
        XCTAssertEqual(try ChapterNavigation.next(in: list, at: MediaTime(seconds: 3)).get().title, "B")
        XCTAssertEqual(try ChapterNavigation.next(in: list, at: MediaTime(seconds: 10)).get().title, "C")
        XCTAssertEqual(try ChapterNavigation.next(in: list, at: MediaTime(seconds: 22)).get().title, "C", "from a gap")
        XCTAssertThrowsError(try ChapterNavigation.next(in: list, at: MediaTime(seconds: 30)).get()) {
            XCTAssertEqual(($0 as? PlayerError)?.message, "no next chapter (chapter 3, \"C\", is the last)")
        }
        XCTAssertThrowsError(try ChapterNavigation.next(in: [], at: .zero).get()) {
            XCTAssertEqual(($0 as? PlayerError)?.message, "the media has no chapters")
        }
    }
}
