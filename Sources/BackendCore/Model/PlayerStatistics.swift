/// Playback statistics (seed 003's `onStats` / `getStats`): a snapshot built on the loop thread.
public struct PlayerStatistics: Sendable, Hashable, Codable {
    /// Video frames rendered by the video sink (`GstBaseSink` `stats::rendered`).
    public var renderedFrames: UInt64 = 0
    /// Video frames dropped by the video sink for lateness (`stats::dropped`).
    public var droppedFrames: UInt64 = 0
    /// Current bitrate of the stream in bits/s from tags (`bitrate`/`nominal-bitrate`), if known.
    public var bitrate: UInt64?
    /// Average bitrate in bits/s: file size over duration, when both are known.
    public var averageBitrate: UInt64?
    /// Last buffering level reported, 0…100 (100 when never buffered).
    public var bufferingPercent: Int = 100
    /// Position at the time of the snapshot.
    public var position: MediaTime?
    /// Duration, if known.
    public var duration: MediaTime?
    /// Current playback rate.
    public var rate: Double = 1.0
    /// Seeks executed since the load (after throttling).
    public var seekCount: Int = 0
    /// Rate changes applied instantly (no flushing seek).
    public var instantRateChanges: Int = 0
    /// Time from the last seek's execution to its *seek done*, in milliseconds.
    public var lastSeekLatencyMilliseconds: Double?
    /// Total wall time spent paused for buffering since the load, in milliseconds.
    public var bufferingTimeMilliseconds: Double = 0
    /// Current video display size.
    public var videoSize: VideoSize?
    /// Video codec name from tags (`video-codec`), e.g. "H.264 (Constrained Baseline Profile)".
    public var videoCodec: String?
    /// Audio codec name from tags (`audio-codec`).
    public var audioCodec: String?
    /// Reloads after a network failure (at most one per load).
    public var networkRetries: Int = 0
    /// Times the clock was lost and playback restarted.
    public var clockLostRecoveries: Int = 0
    /// State transitions the model refused (should stay 0; tests assert it).
    public var rejectedStateTransitions: Int = 0

    /// Seed 004's ABR metrics (MaxProfile, RequestedProfile, requested segment); nil unless
    /// the media is an adaptive stream.
    public var adaptive: ABRMetrics?

    /// Empty statistics.
    /// The features' sections (``PlayerFeature/contributeStatistics(to:)``), e.g. adaptive streaming's.
    public var features = FeatureSections()

    public init() {}
}
