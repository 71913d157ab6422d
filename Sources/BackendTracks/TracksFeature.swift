import BackendCore
import CGStreamer

/// Tracks, subtitles and offsets as a `PlayerFeature`: stream info and selection (playbin
/// `current-*`), the external subtitle file (`suburi`, applied by a reload that keeps position
/// and intent), cue events from the `SubtitleCueSink`, `text-offset`/`av-offset` (the
/// media's tags are the tags feature's, `BackendTags`).
///
/// Publishes ``TracksEvent``s, keeps ``TracksSnapshot`` in the player's snapshot and adds
/// ``TracksMediaInfo`` to the media info. Its public API is the `Player` extension
/// (`Player.tracks`, `Player.selectTrack(_:_:)`, `Player.addSubtitleFile(_:)`…).
///
/// **Thread:** every method runs on the player's loop thread, the only one that touches its
/// state (it is not `Sendable`: `Player` holds it through a `LoopConfined` handle); streaming threads come back through its handle (`FeatureContext.confine(_:)`).
public final class TracksFeature: PlayerFeature {
    /// How text subtitles reach the user, as asked for (``SubtitleRendering/automatic`` is
    /// resolved at ``attach(to:)``).
    let subtitleRendering: SubtitleRendering
    /// How drawn subtitles look, as given to the initializer (``SubtitleStyle``).
    let initialStyle: SubtitleStyle
    /// The drawn-subtitles tap, set by ``attach(to:)`` when subtitles are drawn.
    private(set) var overlayTap: SubtitleOverlayTap?
    /// Seek to the current position after switching the audio or video track.
    let flushOnTrackSwitch: Bool
    /// Which subtitle files next to a local media file load with it (``SubtitleFinder``).
    let subtitleAutoLoad: SubtitleAutoLoad
    /// What the feature knows and wants (loop thread).
    let tracks = TrackState()
    /// The core's context, set by ``attach(to:)``.
    private(set) var context: FeatureContext?

    /// A tracks feature.
    /// - Parameters:
    ///   - subtitleRendering: text subtitles as ``TracksEvent/subtitleCue(_:)`` events (default)
    ///     or drawn into the video by playbin.
    ///   - flushOnTrackSwitch: after switching the audio or video track, seek (accurate,
    ///     flushing) to the current position so the new track is heard/seen at once instead of
    ///     after what playbin already queued (about 1 s). See docs/ADR-001-playbin.md.
    ///   - subtitleStyle: visibility, size and position of drawn subtitles.
    ///   - subtitleAutoLoad: which subtitle file next to a local media file loads with it as its
    ///     external track (the best of ``SubtitleFinder/files(forMedia:mode:)``: playbin takes one).
    public init(subtitleRendering: SubtitleRendering = .events, flushOnTrackSwitch: Bool = true,
                subtitleStyle: SubtitleStyle = SubtitleStyle(), subtitleAutoLoad: SubtitleAutoLoad = .no) {
        self.subtitleAutoLoad = subtitleAutoLoad
        self.subtitleRendering = subtitleRendering
        self.flushOnTrackSwitch = flushOnTrackSwitch
        self.initialStyle = subtitleStyle
    }

    /// The cue sink as `text-sink` (``SubtitleRendering/events``; `FeaturePipeline.setTextSink`) or
    /// the tap on playbin's own subtitle overlay (``SubtitleRendering/overlay``;
    /// ``SubtitleRendering/automatic`` picks it when the video sink draws into a window), and a
    /// watch on the streams changing (`FeaturePipeline.watchStreamChanges`), which re-reads them
    /// on the loop thread.
    public func attach(to context: FeatureContext) {
        self.context = context
        let drawn = subtitleRendering == .overlay || (subtitleRendering == .automatic && context.video.sinkDrawsIntoWindow)
        tracks.published.subtitleStyle = initialStyle
        tracks.published.subtitlesDrawn = drawn
        context.updateSnapshot(tracks.published)
        SubtitleSegmentRepair().connect(to: context)
        let me = context.confine(self)   // for the streaming threads' callbacks below
        if drawn {
            let tap = SubtitleOverlayTap(style: initialStyle) { cue in
                me.runOnLoop { $0?.cueArrived(cue) }
            }
            tap.connect(to: context)
            overlayTap = tap
        } else {
            let sink = SubtitleCueSink()
            if let element = sink.element {
                context.pipeline.setTextSink(element)
                sink.connect(to: context) { cue in
                    me.runOnLoop { $0?.cueArrived(cue) }
                }
                tracks.cueSink = sink
                context.pipeline.queryPositionFromSinks([context.video.sink, context.pipeline.audioSink].compactMap { $0 })
            }
        }
        context.pipeline.watchStreamChanges {
            me.runOnLoop { $0?.publishTracks() }
        }
    }

    /// Removes the cue timer and drops the cue sink's reference (playbin keeps its own until the
    /// core's teardown, which disconnects the handlers first).
    public func teardown() {
        dropHeldCues()
        tracks.cueSink?.release()
        tracks.cueSink = nil
    }

    /// A load: forgets the old media's streams and held cues.
    public func resetForNewMedia(uri: String?) {
        dropHeldCues()
        tracks.forgetMedia()
        context?.updateSnapshot(tracks.published)
    }

    /// The load is about to preroll (playbin in READY with its new `uri`): sets `suburi`
    /// (`FeaturePipeline.setSubtitleURI`; the subtitle file stays only for a reload of the same
    /// media, and a file added before any load applies now; without one, a file found by
    /// `subtitleAutoLoad`), and tells the drawn subtitles' tap which file it is.
    public func willPreroll(uri: String) {
        tracks.prepareLoad(uri: uri)
        guard let context else { return }
        if let deferred = tracks.deferredSubtitle {
            tracks.deferredSubtitle = nil
            tracks.subtitleURI = deferred
            tracks.subtitleForMediaURI = uri
            tracks.published.subtitleFile = deferred
            tracks.awaitingExternal = true
        } else if tracks.subtitleURI == nil, let found = SubtitleFinder.files(forURI: uri, mode: subtitleAutoLoad).first,
                  let foundURI = String(takingGLibString: g_filename_to_uri(found, nil, nil)) {
            tracks.subtitleURI = foundURI
            tracks.subtitleForMediaURI = uri
            tracks.awaitingExternal = true
        }
        context.pipeline.setSubtitleURI(tracks.subtitleURI)
        overlayTap?.subtitleFileChanged(to: tracks.subtitleURI)
    }

    /// Restores the selection kept over a reload, selects a newly added subtitle file (or warns
    /// that it brought no stream), publishes the tracks.
    public func prerolled() {
        guard let context else { return }
        if let keep = tracks.restoreSelection {
            tracks.restoreSelection = nil
            for kind in [TrackKind.video, .audio, .subtitle] {
                if let index = keep[kind] { context.pipeline.selectStream(kind.streamKind, index: index) }
            }
        }
        if tracks.awaitingExternal {
            tracks.awaitingExternal = false
            if let external = StreamInspector.tracks(of: context.pipeline).first(where: \.isExternal) {
                setSubtitlesOn(true)
                context.pipeline.selectStream(.text, index: external.index)
                context.publish(TracksEvent.trackSelected(.subtitle, index: external.index))
                // The selector dropped what reached the new pad while it was inactive: a
                // flushing seek (the start seek, if the reload has one) sends it again.
                if !context.media.hasPendingSeek, !context.media.isLive { context.transport.seek(.absolute(context.media.queryPosition() ?? .zero), mode: .accurate) }
            } else {
                let name = tracks.subtitleURI ?? "?"
                tracks.subtitleURI = nil
                context.publish(.warning(PlayerError(kind: .invalidInput, element: "playbin",
                                                     message: "subtitle file \(name) gave no subtitle stream (unknown format or broken file); playing on without it",
                                                     uri: context.media.uri)))
            }
        }
        publishTracks(force: true)
        // Cues the drawn subtitles' tap saw during preroll: released once the core ran the start
        // seek, if any (its seekIssued drops them; the seek sends them again).
        if !tracks.heldCues.isEmpty { context.runOnLoop { [weak self] in self?.releaseDueCues() } }
    }

    /// Drops the held cues on every seek the core issues, also one issued while another is still
    /// in flight (the cues that one brought are stale): the cue sink sends the new position's cues.
    public func seekIssued(to position: MediaTime) { dropHeldCues() }

    /// A seek landed: drops the held cues that ended before the landing point (playing forwards:
    /// sent for the old position, they can reach the loop after the last seek was issued, seen
    /// with `suburi`) and releases those that are due (queued: after the seek's own events).
    public func observe(_ event: PlayerEvent) {
        guard case .seekDone(let landed) = event else { return }
        if let context, context.media.rate > 0 { tracks.heldCues.removeAll { $0.end.map { $0 <= landed } ?? false } }
        context?.runOnLoop { [weak self] in self?.releaseDueCues() }
    }

    /// The media stopped for good (EOS, stop, error, new load, teardown): no cue is due any more.
    public func finished() { dropHeldCues() }

    /// The streams and the selection at preroll (``TracksMediaInfo``).
    public func contributeMediaInfo(to sections: inout FeatureSections) {
        sections[TracksMediaInfo.self] = TracksMediaInfo(tracks: tracks.published.tracks,
                                                         selection: tracks.published.selection)
    }

    /// Reads the streams and selection; publishes ``TracksEvent/tracksChanged(_:selection:)``
    /// when they differ from the last ones (always with `force`).
    func publishTracks(force: Bool = false) {
        guard let context, context.progress.prerolled, !context.progress.failed else { return }
        let list = StreamInspector.tracks(of: context.pipeline)
        let selection = StreamInspector.selection(of: context.pipeline, subtitlesOn: !tracks.subtitlesOff)
        let changed = tracks.published.tracks != list || tracks.published.selection != selection
        if changed {
            tracks.published.tracks = list
            tracks.published.selection = selection
            context.updateSnapshot(tracks.published)
        }
        if changed || force { context.publish(TracksEvent.tracksChanged(list, selection: selection)) }
    }
}
