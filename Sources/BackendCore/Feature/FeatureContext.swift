import CGStreamer

/// What a ``PlayerFeature`` may see and do in the player core: publish, load, seek, the pipeline,
/// timers, the media's facts and the snapshot. Narrow on purpose — a feature never reaches the
/// engine itself, so the core's state keeps one owner.
///
/// **Thread:** loop thread only (every ``PlayerFeature`` call runs there), except
/// ``runOnLoop(_:)``, which streaming threads use to get there. Commands here act at once, in the
/// middle of the current handler; events still leave after it returns.
public final class FeatureContext: @unchecked Sendable {
    unowned let engine: Engine
    /// The loop thread, held so that ``runOnLoop(_:)`` stays safe from a worker thread that
    /// outlives the engine (it then returns false).
    private let loop: MainLoopThread

    init(engine: Engine) {
        self.engine = engine
        self.loop = engine.loop
    }

    // MARK: Reading the core

    /// The player's settings.
    public var configuration: PlayerConfiguration { engine.configuration }
    /// `playbin`, nil when it could not be created. Borrowed: ref it to keep it.
    public var playbin: UnsafeMutablePointer<GstElement>? { engine.pipeline?.element }
    /// The video sink (nil when video is disabled), borrowed.
    public var videoSink: UnsafeMutablePointer<GstElement>? { engine.sinks.video }
    /// The audio sink (nil when audio is disabled), borrowed.
    public var audioSink: UnsafeMutablePointer<GstElement>? { engine.sinks.audio }
    /// The pipeline's current state (`GST_STATE_CHANGED` of playbin).
    public var pipelineState: GstState { engine.pipeline?.state ?? GST_STATE_NULL }
    /// What the state model knows about the current load.
    public var progress: PlaybackProgress { PlaybackProgress(engine.playback.inputs) }
    /// The explicit state.
    public var state: PlayerState { engine.playback.state }
    /// The playback rate (kept across loads).
    public var rate: Double { engine.playback.rate }
    /// The URI playing (the original one, before features replaced it), nil when none.
    public var uri: String? { engine.facts.uri }
    /// The duration, nil while unknown or live.
    public var duration: MediaTime? { engine.facts.duration }
    /// The source is live (no preroll), or a feature marked it live (``markLive()``).
    public var isLive: Bool { engine.facts.isLive || engine.facts.isLiveWindow }
    /// The last buffering level the core acted on, nil before any.
    public var lastBufferingPercent: Int? { engine.facts.lastBufferingPercent }
    /// The status code of the last HTTP response of the media's source, nil before any.
    public var lastHTTPStatus: Int? { engine.facts.lastHTTPStatus }
    /// A seek waits for preroll (the start position, say).
    public var hasPendingSeek: Bool { engine.seeks.pending != nil }
    /// The start position of the load being decided, during ``URIResolver/resolve(_:)`` (nil
    /// otherwise): a resolver that answers ``LoadDecision/wait`` passes it to ``load(_:start:)``.
    public internal(set) var loadingStart: StartPosition?
    /// The target of the last HTTP redirect the core followed for this load, nil before any: an
    /// `http-headers` message about another URI is a late answer to an earlier hop (the core
    /// ignores it; features see bus messages first).
    public var redirectTarget: String? { engine.facts.redirects.last }
    /// Everything the getters will know once the current handler returns (one lock), the
    /// changes made so far in this handler included.
    public var snapshot: PlayerSnapshot { engine.hub.workingSnapshot }

    /// The position from a pipeline query (`gst_element_query_position`), nil when unknown;
    /// while a route plays the media (``beginRoute(_:)``), the route's position instead (the
    /// pipeline is held where the route began): what MPRIS's `Position` answers while casting.
    public func queryPosition() -> MediaTime? {
        if engine.routing != nil { return engine.routePosition() }
        return engine.pipeline?.queryPosition()
    }

    /// The seekable range in stream time (`GST_QUERY_SEEKING` on playbin, or the window a feature
    /// read, ``updateLiveWindow(_:)``), nil when the media cannot seek: a live stream's DVR
    /// window, which seeks land in after ``markLive()``.
    public func seekableWindow() -> ClosedRange<MediaTime>? { engine.liveWindow() }

    // MARK: Acting

    /// Queues `event` for delivery after the current handler returns (the one delivery path).
    public func publish(_ event: PlayerEvent) { engine.publish(event) }

    /// Publishes a feature's own event (``PlayerEvent/feature(_:)``).
    public func publish(_ payload: some FeatureEventPayload) { engine.publish(.feature(FeatureEvent(payload))) }

    /// Writes the feature's section of the snapshot getters read (``PlayerSnapshot/features``).
    public func updateSnapshot<Section: FeatureSection>(_ section: Section) {
        engine.hub.updateSnapshot { $0.features[Section.self] = section }
    }

    /// Loads `uri` as ``Player/load(_:startAt:)`` does (every ``URIResolver`` is asked again). The play/pause intent becomes the autoplay default; restore it with ``intent``.
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
        set { engine.restore(intent: newValue) }
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
        try configuration.checkRate(rate)
        engine.setRate(rate)
    }
    /// Fails the current load: pipeline to NULL, state `error`, ``PlayerEvent/error(_:)``. The
    /// ``EndOfItemPolicy`` is not asked again.
    public func fail(_ error: PlayerError) { engine.fail(error) }
    /// Seeks as ``Player/seek(to:mode:)`` (kept until preroll, throttled). Asked for from
    /// ``PlayerFeature/prerolled()``, it becomes the load's start seek (replacing a start
    /// position), run after every feature prerolled, before the pipeline leaves PAUSED.
    public func seek(_ target: SeekTarget, mode: SeekMode = .accurate) {
        guard inPrerolled else { return engine.requestSeek(target, mode: mode) }
        if !engine.facts.isLive { engine.seeks.pending = (target, mode) }
    }

    /// Set while the features' ``PlayerFeature/prerolled()`` run (``seek(_:mode:)`` keeps the seek then).
    var inPrerolled = false
    /// What features registered at the extension points (FeatureContext+Extensions.swift).
    var extensions = FeatureExtensions()
    /// The frames before the overlays, kept for snapshots (set when an overlay was added).
    var framesUnderOverlays: FramesUnderOverlays?

    /// A gapless hand-over reached the sinks: `uri` is the media playing now. The core forgets the
    /// old media's facts (duration, statistics), treats positions at or above `stalePositionsFrom`
    /// as left over from the old item until one below arrives, and publishes
    /// ``PlayerEvent/uriLoaded(_:)``.
    public func continueWithHandedOverMedia(uri: String, stalePositionsFrom: MediaTime?) {
        engine.continueWithHandedOverMedia(uri: uri, stalePositionsFrom: stalePositionsFrom)
    }

    /// Marks the media live although it prerolled (a sliding-window playlist): no duration, and
    /// seeks land inside the seekable window (`GST_QUERY_SEEKING`).
    public func markLive() {
        engine.facts.isLiveWindow = true
        engine.hub.updateSnapshot { $0.isLive = true }
    }

    /// Answers position queries from these sinks instead of playbin (whose answer can lag behind
    /// when a sink of the feature's own, such as a text sink, holds the pipeline's position back).
    public func queryPositionFromSinks(_ sinks: [UnsafeMutablePointer<GstElement>]) { engine.pipeline?.positionSinks = sinks }

    // MARK: Download file

    /// For the load being decided (from ``URIResolver/resolve(_:)``, for the http(s) URI it
    /// plays): playbin buffers the download to a file (its `download` flag, also when
    /// ``PlayerConfiguration/progressiveDownload`` is off) made from the `mkstemp` template
    /// `template`, and the `downloadbuffer` keeps the file when it stops (`temp-remove` off), for
    /// the feature to take by ``PlayerFeature/finished()``. ``downloadBuffer`` is that element.
    public func keepDownload(in template: String) {
        engine.downloadFile.update { $0.requested = true; $0.keepTemplate = template }
    }

    /// For the load being decided: the feature wanted to keep the download but cannot (`reason`).
    /// playbin still buffers it to a file that is not kept, placed as for plain progressive
    /// downloads; a warning says `reason` (once per player).
    public func downloadWithoutKeeping(because reason: String) {
        engine.downloadFile.update { $0.requested = true; $0.notKeptBecause = reason }
    }

    /// The `downloadbuffer` writing the download kept by ``keepDownload(in:)`` (borrowed: ref it
    /// to keep it), nil before playbin added it and once the media finished.
    public var downloadBuffer: UnsafeMutablePointer<GstElement>? { engine.downloadFile.current.element?.pointer }

    // MARK: GLib plumbing

    /// Remembers a signal handler the feature connected on `instance` (`g_signal_connect`): the
    /// core disconnects it at teardown, before the pipeline is released.
    public func track(handler id: gulong, on instance: UnsafeMutableRawPointer) { engine.pipeline?.track(handler: id, on: instance) }

    /// A timer on the loop thread (`g_timeout_source_new`): `body` runs every `interval` until it
    /// returns false or the returned source is destroyed. The feature destroys it by
    /// ``PlayerFeature/resetForNewMedia(uri:)``/``PlayerFeature/teardown()`` at the latest.
    public func addTimer(every interval: Duration, _ body: @escaping () -> Bool) -> TimerSource {
        engine.loop.addTimer(every: interval, body)
    }

    /// Watches a file descriptor on the loop thread (`g_unix_fd_source_new`): `body` runs there
    /// whenever `fd` is readable, until it returns false or the returned source is destroyed
    /// (an X connection's socket, say). The feature destroys it by ``PlayerFeature/teardown()``
    /// at the latest, before it closes `fd`.
    public func watchInput(on fd: Int32, _ body: @escaping () -> Bool) -> TimerSource {
        engine.loop.addReadWatch(fileDescriptor: fd, body)
    }

    /// Runs `work` on the loop thread, queued (`g_main_context_invoke_full`): the one way for a
    /// streaming thread or a signal handler to reach the feature. False once the loop has quit.
    @discardableResult
    public func runOnLoop(_ work: @escaping @Sendable () -> Void) -> Bool { loop.invoke(work) }

    /// Diagnostics in GStreamer's debug log: category `gstplay`, level `DEBUG`
    /// (`gst_debug_log_literal`; `GST_DEBUG=gstplay*:5` shows them), with the caller's file,
    /// function and line; `text` is built only when the category's threshold lets it through.
    /// **Thread:** any.
    public func trace(_ text: @autoclosure () -> String, file: StaticString = #fileID, function: StaticString = #function,
                      line: UInt = #line) {
        engine.trace(text(), file: file, function: function, line: line)
    }

    /// Monotonic time in nanoseconds (`g_get_monotonic_time`).
    public static func now() -> UInt64 { Engine.now() }
}

/// What the state model knows about the current load, as a feature may read it.
public struct PlaybackProgress: Sendable, Hashable {
    /// What the user asked for since the load.
    public enum Intent: Sendable, Hashable {
        /// Nothing yet (autoplay off, or just loaded).
        case none
        /// Play.
        case play
        /// Pause.
        case pause
    }

    /// A load is in place (``Player/load(_:startAt:)`` ran and no stop followed).
    public let loaded: Bool
    /// The load prerolled (facts are known).
    public let prerolled: Bool
    /// The load failed.
    public let failed: Bool
    /// The end of the stream was reached.
    public let ended: Bool
    /// A seek is in flight.
    public let seeking: Bool
    /// Playback waits for buffering.
    public let buffering: Bool
    /// What the user asked for.
    public let intent: Intent

    init(_ inputs: PlayerStateInputs) {
        loaded = inputs.loaded
        prerolled = inputs.prerolled
        failed = inputs.failed
        ended = inputs.ended
        seeking = inputs.seeking
        buffering = inputs.buffering
        intent = Intent(inputs.intent)
    }

    /// Loaded, not failed.
    public var isActive: Bool { loaded && !failed }
}

extension PlaybackProgress.Intent {
    init(_ intent: PlayerStateInputs.Intent) {
        switch intent {
        case .none: self = .none
        case .play: self = .play
        case .pause: self = .pause
        }
    }
}
