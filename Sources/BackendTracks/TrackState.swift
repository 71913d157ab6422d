import BackendCore
import GLibSupport

/// What the tracks feature knows and wants: the streams last published, the selection, the
/// external subtitle file, the offsets, the held cues and the cue sink.
///
/// **Thread:** loop thread only. ``published`` is mirrored into the player's snapshot
/// (``TracksSnapshot``), where ``Player`` reads it from any thread.
final class TrackState {
    /// The tracks, selection and offsets last published (the snapshot section's loop-thread copy).
    var published = TracksSnapshot()
    /// The cue sink, nil with ``SubtitleRendering/overlay``.
    var cueSink: SubtitleCueSink?
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
    /// Cues that arrived before they were due, earliest first (``TracksFeature/publishWhenDue(_:)``).
    var heldCues: [SubtitleCue] = []
    /// Publishes a held cue when it is due (``TracksFeature/releaseDueCues()``).
    var cueTimer: TimerSource?
    /// A subtitle file asked for before any media was loaded: the next load's `suburi`.
    var deferredSubtitle: String?

    /// Forgets the old media's facts: held cues, published streams and selection (the
    /// offsets stay).
    func forgetMedia() {
        heldCues = []
        published.tracks = []
        published.selection = TrackSelection()
    }

    /// A load of `uri` is about to preroll: the subtitle file stays only for the same media.
    func prepareLoad(uri: String) {
        if uri != subtitleForMediaURI {
            subtitleURI = nil
            subtitleForMediaURI = nil
            published.subtitleFile = nil
            awaitingExternal = false
            restoreSelection = nil
        }
    }
}
