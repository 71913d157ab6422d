/// What a ``Player`` getter answers from any thread without waiting for the loop:
/// a copy updated by the loop thread under a lock.
public struct PlayerSnapshot: Sendable, Hashable {
    /// The explicit state.
    public var state: PlayerState = .idle
    /// The URI loaded, if any.
    public var uri: String?
    /// The load whose media is current (``PlayerEventRecord/loadID`` of its events): a new one at
    /// every load and gapless hand-over; nil before the first load. Compare it with an event's to
    /// tell whether the event still concerns the current media.
    public var loadID: LoadID?
    /// The last known position.
    public var position: MediaTime?
    /// The duration, when known.
    public var duration: MediaTime?
    /// The video display size, nil for none (or not known yet).
    public var mediaSize: VideoSize?
    /// Playback rate.
    public var rate: Double = 1.0
    /// Linear volume (1.0 = unity).
    public var volume: Double = 1.0
    /// Mute flag.
    public var muted = false
    /// The user's pause (mpv's `pause`): true from ``Player/pause()`` until ``Player/play()``,
    /// also while a seek or buffering holds the state elsewhere; in the snapshot as soon as the
    /// command is issued.
    public var pauseRequested = false
    /// Live source.
    public var isLive = false
    /// Seekable (known after preroll).
    public var isSeekable = false
    /// Last buffering level.
    public var bufferingPercent = 100
    /// The last fatal error since the last load.
    public var lastError: PlayerError?
    /// The A-B loop of the current media (``Player/setABLoop(a:b:count:)``); the points are
    /// forgotten at every load, the count is kept.
    public var abLoop = ABLoop()
    /// Why this player's doors refuse transport commands (play, pause, stop, seeks, rate, what
    /// plays), as they answer it, nil when they run them: set by a feature that hands the
    /// transport to someone else (``FeatureTransport/handOver(refusal:)``), e.g. a sync
    /// follower, whose leader decides. The console, socket and web doors (`PlayerControl`) and
    /// MPRIS (`CanControl` false, its calls answered with this text) read it here.
    public var transportRefusal: String?
    /// The features' sections (``FeatureContext/updateSnapshot(_:)``), e.g. the play queue's:
    /// read in the same lock as the core fields, so every getter answers from one moment.
    public var features = FeatureSections()

    /// An idle snapshot.
    public init() {}
}

extension PlayerSnapshot {
    /// Forgets what belonged to the previous media (position, duration, size, liveness,
    /// seekability, buffering, last error); keeps state, URI and output settings.
    mutating func resetMedia() {
        position = nil
        duration = nil
        mediaSize = nil
        isLive = false
        isSeekable = false
        bufferingPercent = 100
        lastError = nil
        abLoop = ABLoop(count: abLoop.count)
    }
}
