import Backend

/// The track choices a player starts with (gstplay's `--audio-track`, `--sub-track`, `--sub-file`,
/// `--sub-offset`, `--audio-offset`): applied by a ``PlayerControl`` (``PlayerControl/startTracks()``),
/// the selections again to each queue item once its tracks are known. A plain value; any thread.
public struct TrackChoices: Equatable, Sendable {
    /// The audio track selected when each item's tracks are known (`--audio-track N`).
    public var audioTrack: Int?
    /// The subtitle track selected when each item's tracks are known; `.some(nil)` switches
    /// subtitles off (`--sub-track N|none`).
    public var subtitleTrack: Int??
    /// External subtitle files for the first item (`--sub-file`): the last one is used (playbin takes one `suburi`).
    public var subtitleFiles: [String]
    /// The subtitle offset, in milliseconds (`--sub-offset`).
    public var subtitleOffset: Int64
    /// The audio offset, in milliseconds (`--audio-offset`).
    public var audioOffset: Int64

    /// No choices: the player's own defaults.
    public init(audioTrack: Int? = nil, subtitleTrack: Int?? = nil, subtitleFiles: [String] = [],
                subtitleOffset: Int64 = 0, audioOffset: Int64 = 0) {
        self.audioTrack = audioTrack
        self.subtitleTrack = subtitleTrack
        self.subtitleFiles = subtitleFiles
        self.subtitleOffset = subtitleOffset
        self.audioOffset = audioOffset
    }
}
