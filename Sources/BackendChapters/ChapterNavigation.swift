import BackendCore

/// The rules of chapter navigation, on a flattened chapter list (``TocReader``). Pure; any thread.
///
/// - The **current** chapter is the last one in list order that contains the position (so the
///   deepest of nested chapters), with ``tolerance`` for a seek that lands a hair early.
/// - **Next** is the first chapter after the current one that starts later than it (a parent and
///   its first child share a start: they count as one place).
/// - **Previous**, like mpv and VLC: within the first ``restartWindow`` (2 s) of a chapter, the
///   chapter before it (one starting earlier); later, the start of the current chapter. Before
///   the first chapter's 2 s are over there is nothing earlier: its own start. Of nested chapters
///   sharing a start, next and previous name the outermost (the current one is the deepest).
public enum ChapterNavigation {
    /// How far into a chapter "previous" still goes to the one before (2 s, as mpv and VLC).
    public static let restartWindow = MediaTime(seconds: 2)
    /// A position this close before a chapter's start counts as in it (a seek's landing rounding).
    public static let tolerance = MediaTime.milliseconds(5)

    /// The index of the chapter playing at `position`, nil when none contains it.
    public static func current(in chapters: [Chapter], at position: MediaTime) -> Int? {
        let probe = position + tolerance
        return chapters.lastIndex { $0.start <= probe && ($0.end.map { probe < $0 } ?? true) }
    }

    /// The chapter after the one playing at `position`; an error when there is none.
    public static func next(in chapters: [Chapter], at position: MediaTime) -> Result<Chapter, PlayerError> {
        guard !chapters.isEmpty else { return .failure(noChapters) }
        let target: Chapter?
        if let current = current(in: chapters, at: position) {
            target = chapters[(current + 1)...].first { $0.start > chapters[current].start }
        } else {
            target = chapters.first { $0.start > position + tolerance }
        }
        guard let target else { return .failure(invalid("no next chapter (\(describe(chapters, at: position)) is the last)")) }
        return .success(target)
    }

    /// The chapter "previous" goes to from `position` (see the type); an error when there is none.
    public static func previous(in chapters: [Chapter], at position: MediaTime) -> Result<Chapter, PlayerError> {
        guard !chapters.isEmpty else { return .failure(noChapters) }
        guard let current = current(in: chapters, at: position) else {
            guard let last = latest(chapters.filter { $0.start <= position }) else {
                return .failure(invalid("no previous chapter (the first starts at \(chapters[0].start.formatted(fractionDigits: 3)))"))
            }
            return .success(last)
        }
        let chapter = chapters[current]
        if position - chapter.start > restartWindow { return .success(chapter) }
        return .success(latest(chapters[..<current].filter { $0.start < chapter.start }) ?? chapter)
    }

    /// Chapter `index`; an error for a list without chapters or an index it does not have.
    public static func chapter(_ index: Int, in chapters: [Chapter]) -> Result<Chapter, PlayerError> {
        guard !chapters.isEmpty else { return .failure(noChapters) }
        guard chapters.indices.contains(index) else {
            return .failure(invalid("no chapter \(index) (the media has \(chapters.count), 0-\(chapters.count - 1))"))
        }
        return .success(chapters[index])
    }

    /// The chapter of `candidates` that starts last; of several starting there, the first in list
    /// order (the outermost: a parent before the child that shares its start).
    private static func latest(_ candidates: [Chapter]) -> Chapter? {
        guard let start = candidates.map(\.start).max() else { return nil }
        return candidates.first { $0.start == start }
    }

    /// The error for chapter commands on media without chapters.
    public static let noChapters = invalid("the media has no chapters")

    private static func invalid(_ message: String) -> PlayerError { PlayerError(kind: .invalidArgument, message: message) }

    private static func describe(_ chapters: [Chapter], at position: MediaTime) -> String {
        current(in: chapters, at: position).map { "chapter \($0), \"\(chapters[$0].displayTitle)\"," } ?? "the position"
    }
}
