import Backend

/// The chapters' part of the `--json` protocol: the `chapters` and `chapter` events
/// (`ChaptersEvent`) and the `chapters` / `chapter` replies. Pure; any thread.
public enum WireChapters {
    /// One chapter: `{"index":2,"title":"Middle, part one","start":2,"end":3,"depth":1,…}`.
    public struct Entry: Encodable, Sendable, Equatable {
        /// The chapter's 0-based index in the flattened list.
        public var index: Int
        /// Its title (null: none).
        @Nullable public var title: String?
        /// Its start, in seconds.
        public var start: Seconds
        /// Its end, in seconds (null: unknown).
        public var end: Seconds
        /// How deep it is nested (0: top level).
        public var depth: Int
        /// The edition it belongs to.
        public var edition: Int
        /// Its title's language (null: not said).
        @Nullable public var language: String?
        /// Its unique id in the table of contents.
        public var uid: String

        /// The fields of `chapter`.
        public init(_ chapter: Chapter) {
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
        /// Every chapter.
        public var chapters: [Entry]
        /// The chapter playing (null: none).
        @Nullable public var current: Int?
        /// The fields of `chapters`, with `current` playing.
        public init(_ chapters: [Chapter], current: Int?) { self.chapters = chapters.map(Entry.init); self.current = current }
    }

    /// The `chapter` event: the chapter playing now (all null: none).
    public struct Current: Encodable, Sendable, Equatable {
        /// Its index (null: no chapter).
        @Nullable public var index: Int?
        /// Its title (null: none).
        @Nullable public var title: String?
        /// Its start, in seconds.
        public var start: Seconds
        /// Its end, in seconds (null: unknown).
        public var end: Seconds
        /// The fields of `chapter` (all null for nil).
        public init(_ chapter: Chapter?) {
            index = chapter?.index
            title = chapter?.title
            start = Seconds(chapter?.start)
            end = Seconds(chapter?.end)
        }
    }

    /// The `chapter N|next|prev` reply: the chapter sought to and where the seek landed.
    public struct Landing: Encodable, Sendable, Equatable {
        /// The chapter the seek went to.
        public var index: Int
        /// Its title (null: none).
        @Nullable public var title: String?
        /// Its start, in seconds.
        public var start: Seconds
        /// Where the seek landed, in seconds.
        public var position: Seconds
        /// The fields of `landing`.
        public init(_ landing: ChapterLanding) {
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
