import Synchronization

/// What the engine knows and wants about tracks: the streams last published, the selection,
/// the external subtitle file, the offsets, the global tags, and the cue sink.
///
/// **Thread:** the engine's fields are loop-thread only; ``published`` is a lock-protected copy
/// that ``Player`` reads from any thread to check indices before posting a selection.
final class TrackState: @unchecked Sendable {
    /// The tracks and selection last published (lock-protected; any thread).
    let published = Mutex<(tracks: [MediaTrack], selection: TrackSelection)>(([], TrackSelection()))
    /// The cue sink, nil with ``SubtitleRendering/overlay``.
    var cueSink: SubtitleCueSink?
    /// Global tags seen since the last load.
    var tags = MediaTags()
    /// The external subtitle URI (playbin `suburi`) and the media URI it belongs to.
    var subtitleURI: String?
    var subtitleForMediaURI: String?
    /// Set while a reload that added a subtitle file prerolls: select the new stream then, and
    /// warn if none appeared.
    var awaitingExternal = false
    /// Selection to restore after a reload (``Player/addSubtitleFile(_:)``).
    var restoreSelection: TrackSelection?
    /// Subtitles switched off by the user (cues dropped; overlays made silent).
    var subtitlesOff = false
    /// Offsets in milliseconds (playbin `text-offset` / `av-offset`); lock-protected, any thread.
    let offsets = Mutex<(subtitle: Int64, audio: Int64)>((0, 0))
    /// Cues that arrived before they were due, earliest first (``Engine/publishWhenDue(_:)``).
    var heldCues: [SubtitleCue] = []
    /// A subtitle file asked for before any media was loaded: the next load's `suburi`.
    var deferredSubtitle: String?

    /// The tracks last published, any thread.
    var tracks: [MediaTrack] { published.withLock { $0.tracks } }

    /// Forgets per-media facts for a load of `uri`; the subtitle file stays only for the same media.
    func prepareLoad(uri: String?) {
        tags = MediaTags()
        heldCues = []
        if uri != subtitleForMediaURI {
            subtitleURI = nil
            subtitleForMediaURI = nil
            awaitingExternal = false
            restoreSelection = nil
        }
        published.withLock { $0 = ([], TrackSelection()) }
    }
}
