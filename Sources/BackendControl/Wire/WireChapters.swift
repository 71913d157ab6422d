import Backend

/// The chapters' part of the `--json` protocol: the `chapters` and `chapter` events
/// (`ChaptersEvent`) and the `chapters` / `chapter` replies. Pure; any thread.
public enum WireChapters {
    /// One chapter: `{"index":2,"title":"Middle, part one","start":2,"end":3,"depth":1,…}`.
    public struct Entry: Encodable, Sendable, Equatable {
        package var index: Int
        @Nullable package var title: String?
        package var start: Seconds
        package var end: Seconds
        package var depth: Int
        package var edition: Int
        @Nullable package var language: String?
        package var uid: String

        package init(_ chapter: Chapter) {
            index = chapter.index
            title = chapter.title
            start = Seconds(chapter.start)
            end = Seconds(chapter.end)
            depth = chapter.depth
            edition = chapter.edition
            language = chapter.language
            uid = chapter.uid
        }
    }

    /// The `chapters` event: every chapter (an empty list: the new media has none).
    public struct Changed: Encodable, Sendable, Equatable {
        package var chapters: [Entry]
    }

    /// The `chapters` reply: every chapter and the current one's index (null: none).
    public struct List: Encodable, Sendable, Equatable {
        package var chapters: [Entry]
        @Nullable package var current: Int?
        package init(_ chapters: [Chapter], current: Int?) { self.chapters = chapters.map(Entry.init); self.current = current }
    }

    /// The `chapter` event: the chapter playing now (all null: none).
    public struct Current: Encodable, Sendable, Equatable {
        @Nullable package var index: Int?
        @Nullable package var title: String?
        package var start: Seconds
        package var end: Seconds
        package init(_ chapter: Chapter?) {
            index = chapter?.index
            title = chapter?.title
            start = Seconds(chapter?.start)
            end = Seconds(chapter?.end)
        }
    }

    /// The `chapter N|next|prev` reply: the chapter sought to and where the seek landed.
    public struct Landing: Encodable, Sendable, Equatable {
        package var index: Int
        @Nullable package var title: String?
        package var start: Seconds
        package var position: Seconds
        package init(_ landing: ChapterLanding) {
            index = landing.chapter.index
            title = landing.chapter.title
            start = Seconds(landing.chapter.start)
            position = Seconds(landing.position)
        }
    }

    /// The line for a chapters event.
    public static func line(for event: ChaptersEvent) -> String {
        switch event {
        case .chaptersChanged(let chapters):
            return Wire.line(WireEvent(event: "chapters", payload: Changed(chapters: chapters.map(Entry.init))))
        case .chapterChanged(let chapter):
            return Wire.line(WireEvent(event: "chapter", payload: Current(chapter)))
        }
    }
}
