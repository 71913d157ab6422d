import BackendCore
import CGStreamer

/// Chapters as a `PlayerFeature`: reads the media's table of contents from `GST_MESSAGE_TOC`
/// (``TocReader``), keeps the chapter playing now from position events and seeks (their target
/// as they are sent, their landing), seeks to
/// chapters (``ChapterNavigation``'s rules) and, with a start chapter set, starts each load there.
///
/// Publishes ``ChaptersEvent``s and keeps ``ChaptersSnapshot`` in the player's snapshot. Its
/// public API is the `Player` extension (`Player.chapters`, `Player.seek(toChapter:)`,
/// `Player.nextChapter()`, `Player.previousChapter()`…).
///
/// **Thread:** every method runs on the player's loop thread, the only one that touches its
/// state (it is not `Sendable`: `Player` holds it through a `LoopConfined` handle).
public final class ChaptersFeature: PlayerFeature {
    /// The chapters and the current one (the snapshot section's loop-thread copy).
    private var published = ChaptersSnapshot()
    /// `Player.setStartChapter(_:)`: the chapter every load starts at, nil for none.
    var startChapter: Int?
    /// The URI the chapters were read for (``FeatureMedia/uri`` when the TOC arrived).
    private var chaptersURI: String?
    /// Where the media is: loading (its TOC is its own), just handed over gaplessly (its TOC is its
    /// own, the position starts at 0) or playing (a new TOC belongs to the next media).
    private var phase = Phase.loading
    /// A table of contents that came while the media played: the next media's, handed over
    /// gaplessly, reaching a sink the current media does not feed (an audio item's idle video sink
    /// gets the next video's TOC about a second before it plays). Adopted when that media is
    /// announced (`PlayerEvent.uriLoaded`); dropped by a new load.
    private var upcoming: [Chapter]?

    /// Where the seek in flight goes (``seekIssued(to:)``), until it lands: chapter commands count
    /// from there, so `[` twice goes back two chapters even before the first seek landed.
    private var seekingTo: MediaTime?

    /// See ``phase``.
    private enum Phase { case loading, handedOver, playing }
    /// The core's context, set by ``attach(to:)``.
    private(set) var context: FeatureContext?

    /// A chapters feature.
    public init() {}

    /// Keeps the context.
    public func attach(to context: FeatureContext) { self.context = context }

    /// A load or stop: the old media's chapters go (``ChaptersEvent/chaptersChanged(_:)`` with an
    /// empty list when it had some), and a TOC held for a hand-over.
    public func resetForNewMedia(uri: String?) {
        phase = .loading
        upcoming = nil
        seekingTo = nil
        forgetChapters()
    }

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
    /// the chapters, published when they differ from the last ones. While the media plays, a new
    /// table (not an update of this one) is the next media's, handed over gaplessly: it is held
    /// until that media is announced.
    public func observe(message: UnsafeMutablePointer<GstMessage>) {
        guard let chapters = TocReader.chapters(in: message), chapters != published.chapters else { return }
        if phase == .playing, !TocReader.isUpdate(message) {
            upcoming = chapters
            return
        }
        adopt(chapters)
    }

    /// Publishes `chapters` as the media's and the chapter playing: at the start for media just
    /// handed over (position queries may still answer from the previous media's segment),
    /// else at the position now.
    private func adopt(_ chapters: [Chapter]) {
        upcoming = nil
        published.chapters = chapters
        published.current = nil
        chaptersURI = context?.media.uri
        context?.updateSnapshot(published)
        context?.publish(ChaptersEvent.chaptersChanged(chapters))
        let position = phase == .handedOver ? .zero : context?.media.queryPosition() ?? context?.snapshot.position ?? .zero
        updateCurrent(at: position, withList: true)
    }

    /// With a start chapter (`Player.setStartChapter(_:)`): seeks there as the load's start seek;
    /// a media without that chapter plays from its start with a warning.
    public func prerolled() {
        phase = .playing
        guard let startChapter, let context else { return }
        switch ChapterNavigation.chapter(startChapter, in: published.chapters) {
        case .success(let chapter):
            context.transport.seek(.absolute(chapter.start), mode: .accurate)
        case .failure(let error):
            context.publish(.warning(PlayerError(kind: .invalidArgument, message: "start chapter: \(error.message); playing from the start",
                                                 uri: context.media.uri)))
        }
    }

    /// Positions and landed seeks move the current chapter (``ChaptersEvent/chapterChanged(_:)``);
    /// other media announced without a new load (a gapless hand-over) replaces the list with the
    /// one held for it (or empties it).
    public func observe(_ event: PlayerEvent) {
        switch event {
        case .position(let position, _):
            seekingTo = nil                       // positions are not reported while a seek runs
            updateCurrent(at: position)
            if phase == .handedOver { phase = .playing }
        case .seekDone(let position):
            seekingTo = nil
            updateCurrent(at: position)
        case .uriLoaded(let uri) where phase != .loading:
            phase = .handedOver
            let held = upcoming
            if chaptersURI != nil && chaptersURI != uri { forgetChapters() }
            if let held { adopt(held) }
        default: break
        }
    }

    /// A seek is sent: the chapter is the target's from now on (its landing confirms it), so
    /// nothing shows the chapter the seek leaves while it runs.
    public func seekIssued(to position: MediaTime) {
        seekingTo = position
        updateCurrent(at: position)
    }

    /// Sets the current chapter for `position`; publishes the change. `withList`: the chapter
    /// playing as the list arrives (``ChaptersSnapshot/arrivedWithList``).
    private func updateCurrent(at position: MediaTime, withList: Bool = false) {
        guard !published.chapters.isEmpty else { return }
        let current = ChapterNavigation.current(in: published.chapters, at: position)
        guard current != published.current else { return }
        published.current = current
        published.arrivedWithList = withList
        context?.updateSnapshot(published)
        context?.publish(ChaptersEvent.chapterChanged(published.currentChapter))
    }

    // MARK: Commands (loop thread, from the Player extension)

    /// The chapter `request` goes to from the position now (the target of a seek in flight, else
    /// a pipeline query), or why there is none.
    func target(_ request: ChapterRequest) -> Result<Chapter, PlayerError> {
        let position = seekingTo ?? context?.media.queryPosition() ?? context?.snapshot.position ?? .zero
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
        context?.transport.seek(.absolute(chapter.start), mode: .accurate)
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
