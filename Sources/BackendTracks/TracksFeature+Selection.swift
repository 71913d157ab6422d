import BackendCore
import CGStreamer
import Glibc

/// Commands of the tracks feature (loop thread, queued by the `Player` extension with
/// ``Player/withFeature(_:_:)``): selection, the external subtitle file, the offsets.
extension TracksFeature {
    /// Switches `kind` to `index` (nil: subtitles off). Indices were checked by ``Player``;
    /// a stream that vanished since gets a warning and changes nothing.
    func selectTrack(_ kind: TrackKind, _ index: Int?) {
        guard let context, context.progress.prerolled else { return }
        let count = context.pipeline.streamCount(kind.streamKind)
        if let error = TrackSelectionRule.check(kind, index, available: count) {
            context.publish(.warning(error))
            return
        }
        if kind == .subtitle { setSubtitlesOn(index != nil) }
        let current = context.pipeline.currentStream(kind.streamKind)
        if let index { context.pipeline.selectStream(kind.streamKind, index: index) }
        context.publish(TracksEvent.trackSelected(kind, index: index))
        publishTracks()
        // playbin's input-selector switches in place, but what is queued after it (about a
        // second of audio; for a small file every subtitle, and the EOS of the new subtitle
        // stream, which then never comes: see docs/ADR-001-playbin.md) goes out first. An
        // accurate flushing seek to the current position drops it.
        guard let index, index != current, kind == .subtitle || flushOnTrackSwitch, !context.media.isLive,
              let position = context.media.queryPosition() else { return }
        context.transport.seek(.absolute(position), mode: .accurate)
    }

    /// Adds `uri` as the external subtitle (replacing an earlier one: playbin has one `suburi`).
    /// Takes effect by reloading the media at the current position, keeping play/pause.
    func addSubtitleFile(_ uri: String) {
        guard let context else { return }
        let progress = context.progress
        guard let mediaURI = context.media.uri, progress.loaded, !progress.failed else {
            tracks.deferredSubtitle = uri // set as `suburi` by the next load
            return
        }
        let position = progress.prerolled ? context.media.queryPosition() : nil
        let paused = progress.intent == .pause
        tracks.restoreSelection = tracks.published.selection
        tracks.restoreSelection?.subtitle = nil
        tracks.subtitleURI = uri
        tracks.subtitleForMediaURI = mediaURI
        tracks.published.subtitleFile = uri
        tracks.awaitingExternal = true
        let ended = progress.ended
        context.transport.load(mediaURI, start: ended ? nil : position.map { .time($0) })
        if paused || ended { context.transport.pause() }
    }

    /// Sets playbin `text-offset` from milliseconds (`FeatureContext.pipeline.setTextOffset`).
    func setSubtitleOffset(milliseconds: Int64) {
        guard let context, context.pipeline.setTextOffset(.milliseconds(milliseconds)) else { return }
        tracks.published.subtitleOffset = milliseconds
        context.updateSnapshot(tracks.published)
    }

    /// Sets playbin `av-offset` from milliseconds (`FeatureContext.pipeline.setAudioVideoOffset`).
    func setAudioOffset(milliseconds: Int64) {
        guard let context, context.pipeline.setAudioVideoOffset(.milliseconds(milliseconds)) else { return }
        tracks.published.audioOffset = milliseconds
        context.updateSnapshot(tracks.published)
    }

    /// A cue reached the text sink (or the drawn subtitles' tap): published with the subtitle
    /// offset applied to its times, when it is due (``publishWhenDue(_:)``). The tap sees cues
    /// ahead of the picture, also during preroll: those are held until ``prerolled()``.
    func cueArrived(_ raw: SubtitleCueSink.RawCue) {
        guard let progress = context?.progress, progress.loaded, progress.prerolled || overlayTap != nil, !progress.failed,
              !tracks.subtitlesOff, !raw.text.isEmpty else { return }
        let offset = MediaTime.milliseconds(tracks.published.subtitleOffset)
        let cue = SubtitleCue(text: raw.text, start: raw.start + offset, end: raw.end.map { $0 + offset })
        guard progress.prerolled else {
            let index = tracks.heldCues.firstIndex { $0.start > cue.start } ?? tracks.heldCues.endIndex
            return tracks.heldCues.insert(cue, at: index)
        }
        publishWhenDue(cue)
    }

    /// Subtitles on or off without touching playbin's `flags` (changing the `text` flag while
    /// playing left playbin without EOS in 1.22): cues are dropped while off, and drawn subtitles
    /// (``SubtitleOverlayTap``) are made `silent`.
    func setSubtitlesOn(_ on: Bool) {
        guard tracks.subtitlesOff == on else { return }
        tracks.subtitlesOff = !on
        restyleSubtitles { _ in }
    }

    /// Changes how drawn subtitles look (``SubtitleStyle``) and applies it to playbin's
    /// `subtitleoverlay` at once; the snapshot follows. Without drawn subtitles only the
    /// snapshot's value changes.
    func restyleSubtitles(_ change: (inout SubtitleStyle) -> Void) {
        change(&tracks.published.subtitleStyle)
        context?.updateSnapshot(tracks.published)
        guard let overlayTap, let context else { return }
        let wanted = tracks.published.subtitleStyle
        overlayTap.restyle({ $0 = wanted }, in: context.pipeline, hidden: tracks.subtitlesOff)
    }
}
