import BackendCore

/// One chapter of the media's table of contents (`GstToc`), flattened: editions and nested
/// chapters become one list in document order (a parent before its children), each with its
/// nesting ``depth``. A plain value; any thread.
public struct Chapter: Sendable, Hashable, Encodable {
    /// The position in the flattened list (0-based): what `Player.seek(toChapter:)` takes.
    public var index: Int
    /// The entry's UID in the TOC (`gst_toc_entry_get_uid`; Matroska's ChapterStringUID or ChapterUID).
    public var uid: String
    /// The title (`GST_TAG_TITLE` of the entry's tags), nil when untitled.
    public var title: String?
    /// Where the chapter starts (`gst_toc_entry_get_start_stop_times`).
    public var start: MediaTime
    /// Where it ends; nil when the TOC does not say.
    public var end: MediaTime?
    /// The title's language (`GST_TAG_LANGUAGE_CODE`), nil when not tagged.
    public var language: String?
    /// Nesting level: 0 for a chapter directly in an edition (or at the top of an edition-less
    /// TOC), 1 for a chapter inside it, and so on.
    public var depth: Int
    /// The 0-based edition the chapter belongs to (Matroska editions; 0 without editions).
    public var edition: Int

    /// Creates a chapter.
    public init(index: Int, uid: String, title: String? = nil, start: MediaTime, end: MediaTime? = nil,
                language: String? = nil, depth: Int = 0, edition: Int = 0) {
        self.index = index
        self.uid = uid
        self.title = title
        self.start = start
        self.end = end
        self.language = language
        self.depth = depth
        self.edition = edition
    }

    /// The title, or `Chapter N` (1-based) for an untitled chapter.
    public var displayTitle: String { title ?? "Chapter \(index + 1)" }
}

/// Where a chapter command went (`Player.nextChapterAsync()` and the other async forms): the
/// chapter chosen and the position the seek landed at. A plain value; any thread.
public struct ChapterLanding: Sendable, Hashable {
    /// The chapter sought to.
    public var chapter: Chapter
    /// Where the seek landed (the `seekDone` position).
    public var position: MediaTime

    /// Creates the value.
    public init(chapter: Chapter, position: MediaTime) {
        self.chapter = chapter
        self.position = position
    }
}
