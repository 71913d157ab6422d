import BackendCore
import CGStreamer

/// Chapters as a `PlayerFeature`: reads the media's table of contents from `GST_MESSAGE_TOC`
/// (``TocReader``), keeps the chapter playing now from position and seek events, seeks to
/// chapters (``ChapterNavigation``'s rules) and, with a start chapter set, starts each load there.
///
/// Publishes ``ChaptersEvent``s and keeps ``ChaptersSnapshot`` in the player's snapshot. Its
/// public API is the `Player` extension (`Player.chapters`, `Player.seek(toChapter:)`,
/// `Player.nextChapter()`, `Player.previousChapter()`…).
///
/// **Thread:** every method runs on the player's loop thread; `@unchecked Sendable` because
/// `Player` holds it, while its state is touched only there.
public final class ChaptersFeature: PlayerFeature, @unchecked Sendable {
    /// The chapters and the current one (the snapshot section's loop-thread copy).
    private var published = ChaptersSnapshot()
    /// `Player.setStartChapter(_:)`: the chapter every load starts at, nil for none.
    var startChapter: Int?
    /// The URI the chapters were read for (``FeatureContext/uri`` when the TOC arrived).
    private var chaptersURI: String?
    /// The core's context, set by ``attach(to:)``.
    private(set) var context: FeatureContext?

    /// A chapters feature.
    public init() {}

    /// Keeps the context.
    public func attach(to context: FeatureContext) { self.context = context }

    /// A load or stop: the old media's chapters go (``ChaptersEvent/chaptersChanged(_:)`` with an
    /// empty list when it had some).
    public func resetForNewMedia(uri: String?) { forgetChapters() }

    /// Empties the list (and says so when it had chapters).
    private func forgetChapters() {
        chaptersURI = nil
        guard !published.chapters.isEmpty || published.current != nil else { return }
        published = ChaptersSnapshot()
        context?.updateSnapshot(published)
        context?.publish(ChaptersEvent.chaptersChanged([]))
        context?.publish(ChaptersEvent.chapterChanged(nil))
    }

    /// `GST_MESSAGE_TOC` (posted by each sink the TOC event reached, so usually more than once):
    /// the chapters, published when they differ from the last ones. Every message passes on.
    public func handle(message: UnsafeMutablePointer<GstMessage>) -> MessageDisposition {
        guard let chapters = TocReader.chapters(in: message), chapters != published.chapters else { return .proceed }
        published.chapters = chapters
        published.current = nil
        chaptersURI = context?.uri
        context?.updateSnapshot(published)
        context?.publish(ChaptersEvent.chaptersChanged(chapters))
        updateCurrent(at: context?.queryPosition() ?? context?.snapshot.position ?? .zero)
        return .proceed
    }

    /// With a start chapter (`Player.setStartChapter(_:)`): seeks there as the load's start seek;
    /// a media without that chapter plays from its start with a warning.
    public func prerolled() {
        guard let startChapter, let context else { return }
        switch ChapterNavigation.chapter(startChapter, in: published.chapters) {
        case .success(let chapter):
            context.seek(.absolute(chapter.start), mode: .accurate)
        case .failure(let error):
            context.publish(.warning(PlayerError(kind: .invalidArgument, message: "start chapter: \(error.message); playing from the start",
                                                 uri: context.uri)))
        }
    }

    /// Positions and landed seeks move the current chapter (``ChaptersEvent/chapterChanged(_:)``);
    /// other media announced without a new load (a gapless hand-over) empties the list.
    public func observe(_ event: PlayerEvent) {
        switch event {
        case .position(let position, _), .seekDone(let position): updateCurrent(at: position)
        case .uriLoaded(let uri) where chaptersURI != nil && chaptersURI != uri: forgetChapters()
        default: break
        }
    }

    /// Sets the current chapter for `position`; publishes the change.
    private func updateCurrent(at position: MediaTime) {
        guard !published.chapters.isEmpty else { return }
        let current = ChapterNavigation.current(in: published.chapters, at: position)
        guard current != published.current else { return }
        published.current = current
        context?.updateSnapshot(published)
        context?.publish(ChaptersEvent.chapterChanged(published.currentChapter))
    }

    // MARK: Commands (loop thread, from the Player extension)

    /// The chapter `request` goes to from the position now (a pipeline query), or why there is none.
    func target(_ request: ChapterRequest) -> Result<Chapter, PlayerError> {
        let position = context?.queryPosition() ?? context?.snapshot.position ?? .zero
        switch request {
        case .index(let index): return ChapterNavigation.chapter(index, in: published.chapters)
        case .next: return ChapterNavigation.next(in: published.chapters, at: position)
        case .previous: return ChapterNavigation.previous(in: published.chapters, at: position)
        }
    }

    /// Seeks to the chapter `request` names (accurate, so it lands on its start); errors are
    /// dropped (the fire-and-forget form; the async forms return them).
    func go(_ request: ChapterRequest) {
        guard case .success(let chapter) = target(request) else { return }
        context?.seek(.absolute(chapter.start), mode: .accurate)
    }
}

/// Which chapter a command asks for. A plain value; any thread.
public enum ChapterRequest: Sendable, Hashable {
    /// Chapter N of the flattened list (0-based).
    case index(Int)
    /// The next chapter.
    case next
    /// The previous chapter (or the current one's start after its first 2 s).
    case previous
}
