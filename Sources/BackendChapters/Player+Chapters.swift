import BackendCore

/// Chapters on ``Player``: the list, the chapter playing now, and seeks to chapters.
///
/// The getters read the chapters feature's section of the snapshot (``ChaptersSnapshot``, one
/// lock, any thread). The fire-and-forget commands check what they can on the caller's thread
/// (a media without chapters, an index it does not have: they throw and change nothing) and
/// choose the chapter on the loop thread from the position there (``ChapterNavigation``); the
/// async forms return the chapter and where the seek landed, or why there is none. A player
/// without a ``ChaptersFeature`` has no chapters.
extension Player {
    /// The chapters feature's snapshot section (empty without the feature). Any thread.
    private var chaptersSnapshot: ChaptersSnapshot { snapshot.features[ChaptersSnapshot.self] ?? ChaptersSnapshot() }

    /// The media's chapters, flattened with their depth (empty when it has none). Any thread.
    public var chapters: [Chapter] { chaptersSnapshot.chapters }

    /// The chapter playing now (the deepest one containing the position), nil when none. Any thread.
    public var currentChapter: Chapter? { chaptersSnapshot.currentChapter }

    /// Seeks to the start of chapter `index` (accurate). Throws `PlayerError.Kind.invalidArgument`
    /// when the media has no chapters or no chapter `index`.
    public func seek(toChapter index: Int) throws(PlayerError) {
        if case .failure(let error) = ChapterNavigation.chapter(index, in: chapters) { throw error }
        withFeature(ChaptersFeature.self) { feature, _ in feature.go(.index(index)) }
    }

    /// Seeks to the next chapter's start. Throws when the media has no chapters; at the last
    /// chapter nothing happens (``nextChapterAsync()`` says why).
    public func nextChapter() throws(PlayerError) { try go(.next) }

    /// Seeks to the previous chapter's start within the first 2 s of a chapter, else to the
    /// current chapter's start (as mpv and VLC). Throws when the media has no chapters.
    public func previousChapter() throws(PlayerError) { try go(.previous) }

    /// ``seek(toChapter:)`` that returns the chapter and where the seek landed.
    public func seekAsync(toChapter index: Int) async throws(PlayerError) -> ChapterLanding { try await goAsync(.index(index)) }

    /// ``nextChapter()`` that returns the chapter and where the seek landed; throws at the last chapter.
    public func nextChapterAsync() async throws(PlayerError) -> ChapterLanding { try await goAsync(.next) }

    /// ``previousChapter()`` that returns the chapter and where the seek landed.
    public func previousChapterAsync() async throws(PlayerError) -> ChapterLanding { try await goAsync(.previous) }

    /// Starts every following load at chapter `index` (nil: at the start, or the load's own start
    /// position), like mpv's `--start=#N`. A media without that chapter plays from its start, with
    /// a warning. Applied on the loop thread.
    public func setStartChapter(_ index: Int?) {
        withFeature(ChaptersFeature.self) { feature, _ in feature.startChapter = index }
    }

    private func go(_ request: ChapterRequest) throws(PlayerError) {
        guard !chapters.isEmpty else { throw ChapterNavigation.noChapters }
        withFeature(ChaptersFeature.self) { feature, _ in feature.go(request) }
    }

    /// Chooses the chapter on the loop thread (from the position there), then seeks to its start
    /// with ``Player/seekAsync(to:mode:)``.
    private func goAsync(_ request: ChapterRequest) async throws(PlayerError) -> ChapterLanding {
        let chosen = await withCheckedContinuation { (continuation: CheckedContinuation<Result<Chapter, PlayerError>, Never>) in
            let reply = PendingReply<Chapter> { continuation.resume(returning: $0) }
            let queued = withFeature(ChaptersFeature.self) { feature, _ in reply.resolve(feature.target(request)) }
            if !queued { reply.resolve(.failure(chapters.isEmpty ? ChapterNavigation.noChapters : PlayerError.shutDown)) }
        }
        let chapter = try chosen.get()
        let landed = try await seekAsync(to: chapter.start, mode: .accurate)
        return ChapterLanding(chapter: chapter, position: landed)
    }
}
