import CGStreamer

/// The player's commands as a feature issues them (``FeatureContext/transport``): they act at
/// once, in the middle of the current handler, while a route, when one is in place, gets the
/// transport commands as it gets the user's. **Thread:** loop thread.
public struct FeatureTransport {
    unowned let context: FeatureContext
    private var engine: Engine { context.engine }

    /// Loads `uri` as ``Player/load(_:startAt:)`` does (every ``URIResolver`` is asked again).
    /// The play/pause intent becomes the autoplay default; restore it with ``intent``.
    public func load(_ uri: String, start: StartPosition? = nil) {
        engine.load(.success(uri), original: uri, start: start)
    }

    /// Loads `uri` as ``load(_:start:)`` does, but from scratch: the pipeline goes to `NULL` first
    /// (uridecodebin keeps its source, download buffer and decodebin across `READY`, and could
    /// start the old media again). For a feature that found the media it chose broken (the media
    /// cache's damaged copy) and has it loaded from elsewhere.
    public func reloadFromScratch(_ uri: String, start: StartPosition? = nil) {
        engine.featuresFinished()               // they read the download buffer: before NULL closes it
        engine.pipeline?.setState(GST_STATE_NULL)
        engine.load(.success(uri), original: uri, start: start)
    }

    /// What the user last asked for (play, pause or nothing) since the load. Setting it also sets
    /// the pipeline's target state, applied once prerolled (a queue keeps the intent across items).
    public var intent: PlaybackProgress.Intent {
        get { PlaybackProgress.Intent(engine.playback.inputs.intent) }
        nonmutating set { engine.restore(intent: newValue) }
    }

    /// Hands the transport to someone else (`refusal`: what the doors answer a transport
    /// command, ``PlayerSnapshot/transportRefusal``), or takes it back (nil). The feature's own
    /// calls here still act.
    public func handOver(refusal: String?) {
        context.engine.hub.updateSnapshot { $0.transportRefusal = refusal }
    }

    /// ``Player/play()``.
    public func play() { engine.play() }
    /// ``Player/pause()``.
    public func pause() { engine.pause() }
    /// ``Player/stop()``.
    public func stop() { engine.stop() }
    /// ``Player/togglePause()``.
    public func togglePause() { engine.togglePause() }
    /// ``Player/setVolume(_:)``: the linear volume (`playbin.volume`), clamped to 0…10.
    public func setVolume(_ volume: Double) { engine.setVolume(volume.isFinite ? min(max(volume, 0), 10) : 1) }
    /// ``Player/setRate(_:)``: throws for a rate ``PlaybackRate`` refuses (nothing changes),
    /// else a flushing seek at the current position.
    public func setRate(_ rate: Double) throws(PlayerError) {
        try context.configuration.checkRate(rate)
        engine.setRate(rate)
    }

    /// Seeks as ``Player/seek(to:mode:)`` (kept until preroll, throttled). Asked for from
    /// ``PlayerFeature/prerolled()``, it becomes the load's start seek (replacing a start
    /// position), run after every feature prerolled, before the pipeline leaves PAUSED.
    public func seek(_ target: SeekTarget, mode: SeekMode = .accurate) {
        guard context.inPrerolled else { return engine.requestSeek(target, mode: mode) }
        if !engine.facts.isLive { engine.seeks.pending = (target, mode) }
    }

    /// Fails the current load: pipeline to NULL, state `error`, ``PlayerEvent/error(_:)``. The
    /// ``EndOfItemPolicy`` is not asked again.
    public func fail(_ error: PlayerError) { engine.fail(error) }

    /// A gapless hand-over reached the sinks: `uri` is the media playing now. The core forgets the
    /// old media's facts (duration, statistics), treats positions at or above `stalePositionsFrom`
    /// as left over from the old item until one below arrives, and publishes
    /// ``PlayerEvent/uriLoaded(_:)``.
    public func continueWithHandedOverMedia(uri: String, stalePositionsFrom: MediaTime?) {
        engine.continueWithHandedOverMedia(uri: uri, stalePositionsFrom: stalePositionsFrom)
    }
}
