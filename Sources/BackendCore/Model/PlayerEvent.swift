/// Everything the Backend tells its frontend, as plain `Sendable` values.
///
/// Produced on the player's loop thread from bus messages, timers and commands; delivered to
/// the ``PlayerDelegate`` and to every ``Player/events`` stream. No C pointer ever crosses here.
public enum PlayerEvent: Sendable, Hashable {
    /// The loop thread is running and the pipeline exists: the player accepts commands.
    case initialized
    /// The sinks chosen automatically (at least one of video/audio was ``SinkChoice/automatic``):
    /// the factories (or the given descriptions, or "none"), and `reason`, empty unless a fake sink
    /// had to be used (then it says what was tried, e.g. "no working video output (xvimagesink
    /// failed to open, …); using fakevideosink").
    case sinksChosen(video: String, audio: String, reason: String)
    /// A new URI was set (``Player/load(_:startAt:)``); everything about the old one is forgotten.
    case uriLoaded(String)
    /// The loaded source is live (`GST_STATE_CHANGE_NO_PREROLL`: udp://, rtsp://, …) and has sent
    /// no data yet. Posted once per load; the load fails with ``PlayerError/Cause/noLiveData``
    /// when nothing arrives within `timeout` (``PlayerConfiguration/networkTimeout``) of playing.
    case waitingForLiveSource(timeout: Duration)
    /// The explicit player state moved along an edge of the state model (see ``PlayerState``).
    case stateChanged(from: PlayerState, to: PlayerState)
    /// Periodic position report (every ``PlayerConfiguration/positionInterval`` while playing,
    /// and once on pause, after a seek and at EOS). `duration` is nil while unknown or live.
    case position(MediaTime, duration: MediaTime?)
    /// The duration became known, or changed (`GST_MESSAGE_DURATION_CHANGED` then re-query).
    case durationChanged(MediaTime?)
    /// The display size of the video (PAR applied); nil when the stream has no video.
    case mediaSize(VideoSize?)
    /// Buffering level of a non-live stream, 0…100 (repeats dropped).
    case buffering(percent: Int)
    /// A seek landed; carries the position actually reached.
    case seekDone(MediaTime)
    /// End of stream; carries the final position.
    case endOfStream(position: MediaTime)
    /// A non-fatal problem (`GST_MESSAGE_WARNING`, or a missing decoder for one of several streams).
    case warning(PlayerError)
    /// A fatal problem; the pipeline was set to NULL and the player is in ``PlayerState/error``.
    case error(PlayerError)
    /// Volume (linear, 0…1 is unity and below) or mute changed.
    case volumeChanged(volume: Double, muted: Bool)
    /// The playback rate changed (the seek that applies it was issued).
    case rateChanged(Double)
    /// The A-B loop changed: a point set or cleared, the count set, or one loop done (the
    /// count, when finite, went down by one). Not sent when a load forgets the points.
    case abLoopChanged(ABLoop)
    /// Facts about the loaded media found at preroll: liveness and seekability.
    case mediaInfo(MediaInfo)
    /// A periodic statistics snapshot (every ``PlayerConfiguration/statisticsInterval``).
    case statistics(PlayerStatistics)
    /// A feature's own event (``PlayerFeature``): the queue's, the cache's, the tracks'…
    /// Read it with ``payload(as:)``.
    case feature(FeatureEvent)
}

/// Facts about the loaded media, known after preroll.
public struct MediaInfo: Sendable, Hashable, Codable {
    /// The URI being played.
    public var uri: String
    /// The source produces data in real time (`GST_STATE_CHANGE_NO_PREROLL`): no buffering logic, no duration.
    public var isLive: Bool
    /// Seeking is possible (`GST_QUERY_SEEKING`).
    public var isSeekable: Bool
    /// Duration, when known.
    public var duration: MediaTime?
    /// Whether the media has at least one video stream (`n-video`).
    public var hasVideo: Bool
    /// Whether the media has at least one audio stream (`n-audio`).
    public var hasAudio: Bool
    /// Number of subtitle (text) streams.
    public var subtitleStreams: Int
    /// The features' sections (``PlayerFeature/contributeMediaInfo(to:)``).
    public var features = FeatureSections()

    /// Creates the value.
    public init(uri: String, isLive: Bool, isSeekable: Bool, duration: MediaTime?, hasVideo: Bool, hasAudio: Bool, subtitleStreams: Int) {
        self.uri = uri
        self.isLive = isLive
        self.isSeekable = isSeekable
        self.duration = duration
        self.hasVideo = hasVideo
        self.hasAudio = hasAudio
        self.subtitleStreams = subtitleStreams
    }
}
