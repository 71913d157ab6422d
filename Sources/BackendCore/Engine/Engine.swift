import CGStreamer
import GLibSupport
import Glibc

/// The loop-thread half of a ``Player``: a coordinator that routes commands and bus messages
/// to the components that own each piece of state.
///
/// | component | owns |
/// |---|---|
/// | ``PlaybinPipeline`` | `playbin`, its bus watch and signal handlers, its last state |
/// | ``MediaFacts`` | what is known about the loaded media (URI, duration, size, liveness…) |
/// | ``PlaybackState`` | the user's intent, the explicit state, rate/volume/mute |
/// | ``SeekState`` | throttle, pending and in-flight seeks |
/// | ``ABLoopState`` | the A-B loop, the segment seek in effect |
/// | ``FrameStepState`` | frame steps queued and under way |
/// | ``SinkSet`` | the sinks and the elements read inside them |
/// | ``StatisticsCollector`` | counters behind ``PlayerStatistics`` |
/// | ``EngineTimers`` | every GLib timer of the engine |
/// | ``ObserverRegistry`` | time observers |
/// | ``CommandResults`` | the current ``LoadID``, callers waiting for a load's or a seek's result |
///
/// **Thread:** every method runs on the loop thread (``preconditionOnLoop()`` guards the entry
/// points). Commands arrive queued from ``Player`` (never inline, so the engine is never
/// re-entered); events are collected by the ``EventHub`` and delivered after the current
/// handler returns. Not `Sendable`: ``Player`` carries it in a ``LoopConfined`` handle.
final class Engine {
    let configuration: PlayerConfiguration
    let loop: MainLoopThread
    let hub: EventHub
    /// Nil only when `playbin` could not be created (the player then reports an error).
    let pipeline: PlaybinPipeline?
    var facts = MediaFacts()
    var playback = PlaybackState()
    var seeks: SeekState
    /// The A-B loop and the segment seek that carries it (``Engine/setABLoop(_:jumpToStart:)``).
    var abLoop = ABLoopState()
    /// Frame steps asked for and the one under way (``Engine/frameStep(forward:reply:)``).
    var frameSteps = FrameStepState()
    let sinks = SinkSet()
    let statistics = StatisticsCollector()
    let timers = EngineTimers()
    let observers = ObserverRegistry()
    /// playbin's download file of the current load (progressive download buffering).
    let downloadFile = DownloadFile()
    /// The download file's fallback was announced (once per player: ``prepareTemporaryDownload(because:)``).
    var downloadFallbackAnnounced = false
    /// The bytes of a body that stopped short of its `Content-Length`, playing from a file
    /// instead of the server (``Engine/playArrivedBody(after:)``); nil otherwise.
    var arrivedBody: ArrivedBody?
    /// The FIFO the current media is read from, if it is one (opened without blocking).
    let fifo = FIFOSource()
    /// The current ``LoadID`` and the callers waiting for a load's or a seek's result.
    var results = CommandResults()
    /// The plugged-in capabilities, called in this order (``PlayerFeature``).
    let features: [any PlayerFeature]
    /// The route playing the media instead of `playbin` (``FeatureRoute/begin(_:)``), nil when local.
    var routing: RouteState?
    /// The redraw of the paused picture in flight, if any (``redrawPausedFrame()``).
    var redraw = PausedRedraw()
    /// The player's one worker for blocking calls off the loop thread (`WorkerPool`, in order):
    /// live-window seeks (``sendLiveSeek(_:to:position:)``) and features' (``FeatureLoop/runOffLoop(_:)``).
    let worker = WorkerPool()
    /// What the features may see and do (made once, on first use).
    private(set) lazy var context = FeatureContext(engine: self)

    init(configuration: PlayerConfiguration, features: [any PlayerFeature], loop: MainLoopThread, hub: EventHub) {
        self.configuration = configuration
        self.features = features
        self.loop = loop
        self.hub = hub
        self.seeks = SeekState(throttleInterval: configuration.seekThrottle)
        self.pipeline = PlaybinPipeline()
        preconditionOnLoop()
        guard let pipeline, let playbin = pipeline.object else {
            fail(PlayerError(kind: .missingPlugin, message: "the 'playbin' element is not available (install gstreamer1.0-plugins-base)"))
            return
        }
        for event in sinks.install(on: playbin, configuration: configuration) { publish(event) }
        pipeline.videoSink = sinks.video
        pipeline.audioSink = sinks.audio
        attachFeatures()
        connectMediaSizeSignal()
        connectSourceSetup()
        connectDownloadBuffer()
        pipeline.watchBus(on: loop) { [unowned self] message in self.handle(message: message) }
        pipeline.setState(GST_STATE_READY)
    }

    /// A `Sendable` handle on this engine (held weakly) for a worker or streaming thread that
    /// comes back to the loop thread with an answer (``LoopConfined/runOnLoop(_:)``).
    var handle: LoopConfined<Engine?> { LoopConfined(weak: self, on: loop) }

    /// Traps when called off the loop thread (the engine's only thread).
    func preconditionOnLoop(file: StaticString = #fileID, line: UInt = #line) {
        precondition(loop.isOnLoopThread, "Engine used off its loop thread", file: file, line: line)
    }

    /// Starts the periodic timers (loop thread, right after init). The ``PlayerEvent/initialized``
    /// event goes first, ahead of anything init raised.
    func start() {
        preconditionOnLoop()
        hub.startDelivery(with: .initialized)
        if configuration.positionInterval > .zero {
            timers.position = loop.addTimer(every: configuration.positionInterval) { [unowned self] in
                self.positionTick()
                return true
            }
        }
        if configuration.statisticsInterval > .zero {
            timers.statistics = loop.addTimer(every: configuration.statisticsInterval) { [unowned self] in
                if self.playback.inputs.loaded && self.playback.inputs.prerolled { self.collectStatistics(publish: true) }
                return true
            }
        }
    }

    /// Releases everything GStreamer-side: errors still on the bus reported, timers and observers removed, pipeline torn down
    /// (state NULL, handlers disconnected, bus watch destroyed), sinks released. Idempotent.
    func teardown() {
        preconditionOnLoop()
        guard let pipeline, pipeline.element != nil else { return }
        reportPendingErrors()
        if playback.inputs.loaded { playback.inputs.stopping = true; updateState() }
        featuresFinished()
        teardownFeatures()
        closeResults()
        timers.cancelAll()
        routing = nil
        observers.removeAll()
        pipeline.teardown()
        forgetArrivedBody()
        fifo.release()
        sinks.release()
        if playback.inputs.loaded {
            playback.inputs = PlayerStateInputs()
            updateState()
        }
    }

    // MARK: State model

    /// Re-derives the explicit state and publishes it when it moved along an edge of
    /// ``PlayerStateMachine``; refuses (and counts) any other move.
    func updateState() {
        publishPauseIntent()
        for _ in 0..<3 {   // at most two steps (through `ready`), then nothing moves
            switch playback.advance() {
            case .none: return
            case .refused(let from, let to):
                statistics.current.rejectedStateTransitions += 1
                publish(.warning(PlayerError(kind: .other, message: "internal: refused state transition \(from.rawValue) → \(to.rawValue)",
                                             debug: String(describing: playback.inputs))))
                return
            case .allowed(let from, let to):
                hub.updateSnapshot { $0.state = to }
                publish(.stateChanged(from: from, to: to))
            }
        }
    }

    /// Records a fatal error: pipeline to NULL, state `error`, event.
    func fail(_ error: PlayerError) {
        featuresFinished()
        pipeline?.setState(GST_STATE_NULL)
        timers.cancelMediaTimers()
        playback.target = GST_STATE_NULL
        playback.inputs.loaded = true
        playback.inputs.failed = true
        playback.inputs.stopping = false
        hub.updateSnapshot { $0.lastError = error }
        updateState()
        publish(.error(error))
        failPendingResults(error)
    }

    // MARK: Position and duration

    /// The position timer: reports while PLAYING, when someone listens.
    private func positionTick() {
        if routing != nil { return routeTick() }
        guard pipeline?.state == GST_STATE_PLAYING, playback.inputs.prerolled, !playback.inputs.seeking,
              !playback.inputs.ended, hub.hasListeners else { return }
        reportPosition()
    }

    /// Queries position (and the duration while unknown) and publishes a position event.
    func reportPosition() {
        if facts.duration == nil { queryDuration(); runFractionSeekWaitingForDuration() }
        guard let position = routePosition() ?? pipeline?.queryPosition(), !facts.isStale(position) else { return }
        hub.updateSnapshot { $0.position = position }
        publish(.position(position, duration: facts.duration))
    }

    /// Queries the duration and publishes it when it changed. Not for live media, nor for a live
    /// window (a sliding-window playlist has no duration, and 1.22's adaptive demuxers answer the
    /// query under the lock their playlist refresh holds while it downloads: asked on every
    /// position tick, it froze the loop thread for the length of an outage).
    func queryDuration() {
        guard !facts.isLive, !facts.isLiveWindow, let known = pipeline?.queryDuration() else { return }
        facts.duration = known
        // Re-queries after DURATION_CHANGED often differ by nanoseconds: not a change to announce.
        if let published = facts.publishedDuration, abs(published.nanoseconds - known.nanoseconds) < 1_000_000 { return }
        facts.publishedDuration = known
        hub.updateSnapshot { $0.duration = known }
        publish(.durationChanged(known))
    }

    /// Runs a fraction seek that was kept because the duration was unknown at preroll.
    func runFractionSeekWaitingForDuration() {
        guard facts.duration != nil, playback.inputs.prerolled, case .fraction? = seeks.pending?.target,
              let pending = seeks.pending else { return }
        seeks.pending = nil
        requestSeek(pending.target, mode: pending.mode)
    }

    /// Fills ``PlayerStatistics`` from the components; stores it for getters and publishes it
    /// as an event when `publish` is set.
    func collectStatistics(publish shouldPublish: Bool) {
        preconditionOnLoop()
        guard let pipeline else { return }
        var snapshot = statistics.snapshot(pipeline: pipeline, sinks: sinks, duration: facts.duration, now: Engine.now())
        snapshot.features = featureStatistics()
        hub.storeStatistics(snapshot)
        if shouldPublish { publish(.statistics(snapshot)) }
    }

    // MARK: Helpers

    /// Queues an event; the hub delivers it after the current handler returns.
    func publish(_ event: PlayerEvent) {
        hub.publish(event, loadID: results.currentLoad)
        featuresObserve(event)      // after: what a feature publishes from here follows `event`
    }

    /// Fails with `error` unless a feature acts on it (``EndOfItemPolicy/failed(with:)``).
    func failUnlessFeatureActs(_ error: PlayerError) {
        switch featuresFailed(with: error) {
        case .proceed: fail(error)
        case .stop: stop()
        case .advance, .retry: break
        }
    }

    /// Diagnostics in GStreamer's debug log, category `gstplay` at `DEBUG` (``DebugLog``:
    /// `GST_DEBUG=gstplay*:5` shows them); `text` is built only then.
    func trace(_ text: @autoclosure () -> String, file: StaticString = #fileID, function: StaticString = #function, line: UInt = #line) {
        DebugLog.log(text(), file: file, function: function, line: line)
    }

    /// Monotonic nanoseconds (`g_get_monotonic_time` is µs).
    static func now() -> UInt64 { UInt64(g_get_monotonic_time()) * 1000 }
}
