import Backend

/// The chapters' part of the `--json` protocol: the `chapters` and `chapter` events
/// (``ChaptersEvent``) and the `chapters` / `chapter` replies. Pure; any thread.
enum WireChapters {
    /// One chapter: `{"index":2,"title":"Middle, part one","start":2,"end":3,"depth":1,…}`.
    struct Entry: Encodable, Sendable, Equatable {
        var index: Int
        @Nullable var title: String?
        var start: Seconds
        var end: Seconds
        var depth: Int
        var edition: Int
        @Nullable var language: String?
        var uid: String

        init(_ chapter: Chapter) {
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
    struct Changed: Encodable, Sendable, Equatable {
        var chapters: [Entry]
    }

    /// The `chapters` reply: every chapter and the current one's index (null: none).
    struct List: Encodable, Sendable, Equatable {
        var chapters: [Entry]
        @Nullable var current: Int?
        init(_ chapters: [Chapter], current: Int?) { self.chapters = chapters.map(Entry.init); self.current = current }
    }

    /// The `chapter` event: the chapter playing now (all null: none).
    struct Current: Encodable, Sendable, Equatable {
        @Nullable var index: Int?
        @Nullable var title: String?
        var start: Seconds
        var end: Seconds
        init(_ chapter: Chapter?) {
            index = chapter?.index
            title = chapter?.title
            start = Seconds(chapter?.start)
            end = Seconds(chapter?.end)
        }
    }

    /// The `chapter N|next|prev` reply: the chapter sought to and where the seek landed.
    struct Landing: Encodable, Sendable, Equatable {
        var index: Int
        @Nullable var title: String?
        var start: Seconds
        var position: Seconds
        init(_ landing: ChapterLanding) {
            index = landing.chapter.index
            title = landing.chapter.title
            start = Seconds(landing.chapter.start)
            position = Seconds(landing.position)
        }
    }

    /// The line for a chapters event.
    static func line(for event: ChaptersEvent) -> String {
        switch event {
        case .chaptersChanged(let chapters):
            return Wire.line(WireEvent(event: "chapters", payload: Changed(chapters: chapters.map(Entry.init))))
        case .chapterChanged(let chapter):
            return Wire.line(WireEvent(event: "chapter", payload: Current(chapter)))
        }
    }
}
