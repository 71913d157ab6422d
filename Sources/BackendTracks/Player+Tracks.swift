import BackendCore
import CGStreamer
import Glibc

/// Media selection on ``Player`` (seed 002's audible/legible options): list the tracks, select
/// one per kind (or no subtitles), add an external subtitle file, shift subtitles and audio.
///
/// The getters read the tracks feature's section of the snapshot (``TracksSnapshot``, one lock,
/// any thread). Selections are checked against the tracks last published
/// (``TracksEvent/tracksChanged(_:selection:)``) on the caller's thread, then applied on the
/// loop thread (`Player.withFeature(_:_:)`); a bad index throws and changes nothing. A player
/// without a ``TracksFeature`` has no tracks and ignores the commands.
extension Player {
    /// The tracks feature's snapshot section (empty without the feature). Any thread.
    private var tracksSnapshot: TracksSnapshot { snapshot.features[TracksSnapshot.self] ?? TracksSnapshot() }

    /// The streams of the loaded media, as last published (empty before preroll). Any thread.
    public var tracks: [MediaTrack] { tracksSnapshot.tracks }

    /// The tracks playing now (playbin `current-video`/`current-audio`/`current-text`). Any thread.
    public var trackSelection: TrackSelection { tracksSnapshot.selection }

    /// Plays audio track `index` (playbin `current-audio`); the position is kept.
    /// Throws `PlayerError.Kind.invalidArgument` for an index the media does not have.
    public func selectAudioTrack(_ index: Int) throws(PlayerError) { try selectTrack(.audio, index) }

    /// Shows subtitle track `index`, or none (nil: cues dropped, overlays silenced).
    public func selectSubtitleTrack(_ index: Int?) throws(PlayerError) { try selectTrack(.subtitle, index) }

    /// Shows video track `index` (playbin `current-video`).
    public func selectVideoTrack(_ index: Int) throws(PlayerError) { try selectTrack(.video, index) }

    /// Selects `index` of `kind` (nil only for subtitles); ``TracksEvent/trackSelected(_:index:)`` follows.
    public func selectTrack(_ kind: TrackKind, _ index: Int?) throws(PlayerError) {
        let available = tracks.filter { $0.kind == kind }.count
        if let error = TrackSelectionRule.check(kind, index, available: available) { throw error }
        withFeature(TracksFeature.self) { feature, _ in feature.selectTrack(kind, index) }
    }

    /// Adds an external subtitle file (.srt, .vtt, .ass…; a path or URI) as a selectable
    /// subtitle track, and selects it. playbin takes one `suburi`: a second file replaces the
    /// first. Applied by reloading the media at the current position (play/pause kept); before
    /// the media prerolled, at its preroll. Throws when a local file cannot be read
    /// (`g_filename_from_uri`, `access`); a file GStreamer cannot parse gives a
    /// `PlayerEvent.warning(_:)` and playback goes on.
    public func addSubtitleFile(_ location: String) throws(PlayerError) {
        let uri = try MediaLocation.uri(for: location)
        if URIScheme.isFile(uri) {
            let path = String(takingGLibString: g_filename_from_uri(uri, nil, nil)) ?? location
            if access(path, R_OK) != 0 {
                let reason = String(cString: strerror(errno))
                throw PlayerError(kind: .invalidInput, message: "cannot read subtitle file \(path): \(reason)", uri: uri)
            }
        }
        withFeature(TracksFeature.self) { feature, _ in feature.addSubtitleFile(uri) }
    }

    /// Subtitle delay in milliseconds (positive: later), like mpv's `sub-delay`. playbin
    /// `text-offset`; cue times in events include it. Any thread.
    public var subtitleOffset: Int64 { tracksSnapshot.subtitleOffset }

    /// Sets ``subtitleOffset`` (applied on the loop thread).
    public func setSubtitleOffset(milliseconds: Int64) {
        withFeature(TracksFeature.self) { feature, _ in feature.setSubtitleOffset(milliseconds: milliseconds) }
    }

    /// Audio/video offset in milliseconds, passed to playbin `av-offset` unchanged. Any thread.
    public var audioOffset: Int64 { tracksSnapshot.audioOffset }

    /// Sets ``audioOffset`` (applied on the loop thread).
    public func setAudioOffset(milliseconds: Int64) {
        withFeature(TracksFeature.self) { feature, _ in feature.setAudioOffset(milliseconds: milliseconds) }
    }
}
