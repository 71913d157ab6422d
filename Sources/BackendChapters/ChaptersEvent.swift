import BackendCore

/// What the chapters feature tells the frontend (`PlayerEvent.feature(_:)`; read it with
/// `event.payload(as: ChaptersEvent.self)` or `PlayerEvent.chaptersEvent`). Published on the
/// loop thread.
public enum ChaptersEvent: FeatureEventPayload {
    /// The media's chapters, read from its table of contents (`GST_MESSAGE_TOC`); an empty list
    /// when the next media replaced media that had chapters. Media without a TOC raises none.
    case chaptersChanged([Chapter])
    /// The chapter playing now changed (from position and seek events): the deepest chapter
    /// containing the position, nil before the first chapter, in a gap, or when the list emptied.
    case chapterChanged(Chapter?)
}

public extension PlayerEvent {
    /// The chapters feature's payload of this event, nil for every other event.
    var chaptersEvent: ChaptersEvent? { payload(as: ChaptersEvent.self) }
}

/// The chapters feature's section of `PlayerSnapshot.features`: what `Player.chapters` and
/// `Player.currentChapter` answer (written on the loop thread with
/// `FeatureContext.updateSnapshot(_:)`, read under the snapshot's one lock from any thread).
public struct ChaptersSnapshot: FeatureSection {
    /// `"chapters"`.
    public static let key = "chapters"
    /// The media's chapters, flattened (empty when it has none, or before its TOC arrived).
    public var chapters: [Chapter] = []
    /// The index of the chapter playing now, nil when none.
    public var current: Int?
    /// True while the current chapter is the one playing as the list arrived (a load's start, a
    /// gapless hand-over); false once playing on or a seek (back to the first chapter too) made
    /// it current. The OSD announces only the latter.
    public var arrivedWithList: Bool

    /// No chapters.
    public init(chapters: [Chapter] = [], current: Int? = nil, arrivedWithList: Bool = false) {
        self.chapters = chapters
        self.current = current
        self.arrivedWithList = arrivedWithList
    }

    /// The JSON record keeps its shape: `arrivedWithList` is the OSD's business.
    private enum CodingKeys: String, CodingKey { case chapters, current }

    /// The chapter playing now.
    public var currentChapter: Chapter? { current.flatMap { chapters.indices.contains($0) ? chapters[$0] : nil } }
}
