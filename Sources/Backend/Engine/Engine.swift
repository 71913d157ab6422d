import CGStreamer
import Foundation

/// The loop-thread half of a ``Player``: owns `playbin`, its bus watch, timers and signal
/// handlers, and turns GStreamer's messages into ``PlayerEvent``s.
///
/// **Thread:** every method and property is used on the loop thread only
/// (``preconditionOnLoop()`` guards the entry points). It is `@unchecked Sendable` only so
/// the ``Player`` can carry it into closures that run there.
final class Engine: @unchecked Sendable {
    /// A seek target before it is resolved against the current position and duration.
    enum SeekTarget: Equatable {
        case absolute(MediaTime)
        case relative(MediaTime)
        case fraction(Double)
    }

    let configuration: PlayerConfiguration
    let loop: MainLoopThread
    let hub: EventHub

    // GStreamer objects (owned references).
    private(set) var playbin: UnsafeMutablePointer<GstElement>?
    var videoSink: UnsafeMutablePointer<GstElement>?
    var audioSink: UnsafeMutablePointer<GstElement>?
    private var busWatch: UnsafeMutablePointer<GSource>?
    private var positionTimer: TimerSource?
    private var statisticsTimer: TimerSource?
    var seekTimer: TimerSource?
    /// Fails a load that does not preroll in time (see ``PlayerConfiguration/openTimeoutSeconds``).
    var openWatchdog: TimerSource?
    var signalHandlers: [(instance: UnsafeMutableRawPointer, id: gulong)] = []

    // What the user wants and what we know, all since the last load.
    var inputs = PlayerStateInputs()
    private(set) var state: PlayerState = .idle
    var uri: String?
    /// `GST_STATE_PLAYING` or `GST_STATE_PAUSED` (or lower when stopped).
    var targetState: GstState = GST_STATE_NULL
    var pipelineState: GstState = GST_STATE_NULL
    var isLive = false
    var duration: MediaTime?
    /// The duration last announced, so a re-query after DURATION_CHANGED only speaks on change.
    var publishedDuration: MediaTime?
    var mediaSize: VideoSize?
    var lastBufferingPercent: Int?
    var bufferingStartedAt: UInt64?
    var missingPlugins: [String] = []
    /// Status code of the last HTTP response for the current URI (`http-headers` element message).
    var lastHTTPStatus: Int?
    /// Reloads left for the current URI after a network failure (seed 001: retry once).
    var networkRetriesLeft = 1
    var rate = 1.0
    var volume = 1.0
    var muted = false

    // Seeks.
    var throttle: SeekThrottle
    /// A seek asked for before preroll, resolved (fractions need the duration) once prerolled.
    var pendingSeekBeforePreroll: (target: SeekTarget, mode: SeekMode)?
    var seekIssuedAt: UInt64?
    /// Seqnum of the bus marker posted before the latest seek, and whether it came through.
    var seekMarkerSeqnum: guint32 = 0
    var seekMarkerSeen = false
    /// Seqnum of the bus marker posted at the last load/stop; messages before it are stale.
    var epochMarkerSeqnum: guint32?

    // Statistics kept between snapshots.
    var stats = PlayerStatistics()
    /// playbin's own state changes (old, new) as seen on the bus; for diagnostics and tests.
    var pipelineTransitions: [(GstState, GstState)] = []
    // Time observers.
    var periodicObservers: [TimeObserverToken: (TimeObserver, TimerSource)] = [:]
    var boundaryObservers: [TimeObserverToken: TimeObserver] = [:]
    var boundaryTimer: TimerSource?
    var lastBoundaryPosition: MediaTime?

    /// The element inside the video sink that keeps `stats` (rendered/dropped), if any.
    var statisticsSink: UnsafeMutablePointer<GstElement>?
    /// The element inside the audio sink that keeps `last-sample`, if any.
    var audioSampleSink: UnsafeMutablePointer<GstElement>?

    /// Events raised while building the pipeline, before anyone could receive them.
    var startupEvents: [PlayerEvent] = []

    init(configuration: PlayerConfiguration, loop: MainLoopThread, hub: EventHub) {
        self.configuration = configuration
        self.loop = loop
        self.hub = hub
        self.throttle = SeekThrottle(intervalNanoseconds: UInt64(configuration.seekThrottleMilliseconds) * 1_000_000)
        preconditionOnLoop()
        createPipeline()
    }

    /// Traps when called off the loop thread (the engine's only thread).
    func preconditionOnLoop(file: StaticString = #fileID, line: UInt = #line) {
        precondition(loop.isOnLoopThread, "Engine used off its loop thread", file: file, line: line)
    }

    // MARK: Lifecycle

    private func createPipeline() {
        guard let element = gst_element_factory_make("playbin", "gstplay-playbin") else {
            fail(PlayerError(kind: .missingPlugin, message: "the 'playbin' element is not available (install gstreamer1.0-plugins-base)"))
            return
        }
        _ = gst_object_ref_sink(UnsafeMutableRawPointer(element))
        playbin = element
        configureSinks()
        connectPlaybinSignals()
        connectSourceSetup()
        let bus = gst_element_get_bus(element)!
        busWatch = CGStreamer_bus_watch_attach(bus, loop.context, { _, message, data in
            guard let message, let data else { return 1 }
            CallbackBox<Engine>.from(data).value.handle(message: message)
            return 1 // keep the watch
        }, CallbackBox(self).retainedPointer, callbackBoxRelease)
        gst_object_unref(UnsafeMutableRawPointer(bus))
        gst_element_set_state(element, GST_STATE_READY)
        pipelineState = GST_STATE_READY
    }

    /// Starts the periodic timers and announces the player (loop thread, right after init).
    func start() {
        preconditionOnLoop()
        positionTimer = loop.addTimer(milliseconds: max(1, configuration.positionIntervalMilliseconds)) { [unowned self] in
            self.positionTick()
            return true
        }
        if configuration.statisticsIntervalMilliseconds > 0 {
            statisticsTimer = loop.addTimer(milliseconds: configuration.statisticsIntervalMilliseconds) { [unowned self] in
                if self.inputs.loaded && self.inputs.prerolled { self.collectStatistics(publish: true) }
                return true
            }
        }
        publish(.initialized)
        for event in startupEvents { publish(event) }
        startupEvents = []
    }

    /// Releases everything GStreamer-side: state NULL, bus watch and timers destroyed, signal
    /// handlers disconnected, references dropped. Idempotent.
    func teardown() {
        preconditionOnLoop()
        guard let element = playbin else { return }
        if inputs.loaded { inputs.stopping = true; updateState() }
        positionTimer?.destroy(); positionTimer = nil
        statisticsTimer?.destroy(); statisticsTimer = nil
        seekTimer?.destroy(); seekTimer = nil
        openWatchdog?.destroy(); openWatchdog = nil
        removeAllObservers()
        gst_element_set_state(element, GST_STATE_NULL)
        pipelineState = GST_STATE_NULL
        for handler in signalHandlers { g_signal_handler_disconnect(handler.instance, handler.id) }
        signalHandlers.removeAll()
        if let busWatch {
            g_source_destroy(busWatch)
            g_source_unref(busWatch)
            self.busWatch = nil
        }
        if let statisticsSink { gst_object_unref(UnsafeMutableRawPointer(statisticsSink)) }
        if let audioSampleSink { gst_object_unref(UnsafeMutableRawPointer(audioSampleSink)) }
        statisticsSink = nil
        audioSampleSink = nil
        if let videoSink { gst_object_unref(UnsafeMutableRawPointer(videoSink)) }
        if let audioSink { gst_object_unref(UnsafeMutableRawPointer(audioSink)) }
        videoSink = nil
        audioSink = nil
        gst_object_unref(UnsafeMutableRawPointer(element))
        playbin = nil
        if inputs.loaded {
            inputs = PlayerStateInputs()
            updateState()
        }
    }

    // MARK: Commands

    func load(_ resolved: Result<String, PlayerError>, original: String) {
        preconditionOnLoop()
        guard let element = playbin else { return }
        resetForNewMedia()
        gst_element_set_state(element, GST_STATE_READY)
        pipelineState = GST_STATE_READY
        startNewBusEpoch()
        switch resolved {
        case .failure(let error):
            uri = nil
            hub.updateSnapshot { $0.uri = nil }
            publish(.uriLoaded(original))
            inputs.loaded = true
            updateState()
            fail(error)
            return
        case .success(let newURI):
            uri = newURI
            hub.updateSnapshot { $0.uri = newURI }
            publish(.uriLoaded(newURI))
            CGStreamer_set_string(UnsafeMutableRawPointer(element), "uri", newURI)
        }
        inputs.loaded = true
        updateState()
        inputs.intent = configuration.autoplay ? .play : .none
        targetState = configuration.autoplay ? GST_STATE_PLAYING : GST_STATE_PAUSED
        armOpenWatchdog()
        let result = gst_element_set_state(element, GST_STATE_PAUSED)
        if result == GST_STATE_CHANGE_NO_PREROLL {
            isLive = true
            hub.updateSnapshot { $0.isLive = true }
            if targetState == GST_STATE_PLAYING { gst_element_set_state(element, GST_STATE_PLAYING) }
        }
        // A FAILURE result is followed by an ERROR message on the bus, handled there.
    }

    /// Starts the preroll watchdog for the current load.
    private func armOpenWatchdog() {
        let seconds = configuration.openTimeoutSeconds
            ?? (isNetworkURI ? max(30, 3 * configuration.networkTimeoutSeconds) : 10)
        openWatchdog = loop.addTimer(milliseconds: seconds * 1000) { [unowned self] in
            self.openWatchdog = nil
            if self.inputs.loaded && !self.inputs.prerolled && !self.inputs.failed {
                self.fail(PlayerError(kind: .stream, element: "playbin",
                                      message: "could not open the media within \(seconds) s: no stream became playable",
                                      missingPlugins: self.missingPlugins, uri: self.uri))
            }
            return false
        }
    }

    /// Forgets everything about the previous media (loop thread).
    private func resetForNewMedia() {
        seekTimer?.destroy(); seekTimer = nil
        openWatchdog?.destroy(); openWatchdog = nil
        throttle.reset()
        pendingSeekBeforePreroll = nil
        seekIssuedAt = nil
        isLive = false
        duration = nil
        publishedDuration = nil
        pipelineTransitions.removeAll()
        lastBufferingPercent = nil
        bufferingStartedAt = nil
        missingPlugins = []
        lastHTTPStatus = nil
        networkRetriesLeft = 1
        let hadSize = mediaSize != nil
        mediaSize = nil
        let rejected = stats.rejectedStateTransitions
        stats = PlayerStatistics()
        stats.rejectedStateTransitions = rejected
        stats.rate = rate
        inputs = PlayerStateInputs()
        lastBoundaryPosition = nil
        hub.updateSnapshot {
            $0.position = nil
            $0.duration = nil
            $0.mediaSize = nil
            $0.isLive = false
            $0.isSeekable = false
            $0.bufferingPercent = 100
            $0.lastError = nil
        }
        if hadSize { publish(.mediaSize(nil)) }
    }

    func play() {
        preconditionOnLoop()
        guard let element = playbin else { return }
        if !inputs.loaded || inputs.failed {
            if let uri { load(.success(uri), original: uri); inputs.intent = .play; targetState = GST_STATE_PLAYING }
            return
        }
        inputs.intent = .play
        inputs.leftReady = true
        targetState = GST_STATE_PLAYING
        if inputs.ended {
            requestSeek(.absolute(.zero), mode: .accurate)
        }
        if inputs.prerolled && !inputs.buffering && !inputs.seeking {
            gst_element_set_state(element, GST_STATE_PLAYING)
        }
        updateState()
    }

    func pause() {
        preconditionOnLoop()
        guard let element = playbin, inputs.loaded, !inputs.failed else { return }
        inputs.intent = .pause
        inputs.leftReady = true
        targetState = GST_STATE_PAUSED

        gst_element_set_state(element, GST_STATE_PAUSED)
        if inputs.prerolled { reportPosition() }
        updateState()
    }

    func togglePause() {
        preconditionOnLoop()
        if inputs.loaded && !inputs.failed && !inputs.ended && inputs.intent == .play { pause() } else { play() }
    }

    func stop() {
        preconditionOnLoop()
        guard let element = playbin, inputs.loaded else { return }
        inputs.stopping = true
        updateState()
        seekTimer?.destroy(); seekTimer = nil
        openWatchdog?.destroy(); openWatchdog = nil
        throttle.reset()
        pendingSeekBeforePreroll = nil
        seekIssuedAt = nil
        targetState = GST_STATE_READY
        gst_element_set_state(element, GST_STATE_READY)
        pipelineState = GST_STATE_READY
        startNewBusEpoch()
        inputs = PlayerStateInputs()
        updateState()
    }

    func setVolume(_ value: Double) {
        preconditionOnLoop()
        guard let element = playbin else { return }
        volume = value
        CGStreamer_set_double(UnsafeMutableRawPointer(element), "volume", value)
        hub.updateSnapshot { $0.volume = value }
        publish(.volumeChanged(volume: value, muted: muted))
    }

    func setMuted(_ value: Bool) {
        preconditionOnLoop()
        guard let element = playbin else { return }
        muted = value
        CGStreamer_set_boolean(UnsafeMutableRawPointer(element), "mute", value ? 1 : 0)
        hub.updateSnapshot { $0.muted = value }
        publish(.volumeChanged(volume: volume, muted: value))
    }

    // MARK: State model

    /// Re-derives the explicit state from ``inputs`` and publishes the change if it is an
    /// edge of ``PlayerStateMachine``; refuses (and counts) any other.
    func updateState() {
        let next = inputs.derivedState
        guard next != state else { return }
        guard PlayerStateMachine.isAllowed(from: state, to: next) else {
            stats.rejectedStateTransitions += 1
            publish(.warning(PlayerError(kind: .other, message: "internal: refused state transition \(state.rawValue) → \(next.rawValue)",
                                         debug: String(describing: inputs))))
            return
        }
        let previous = state
        state = next
        hub.updateSnapshot { $0.state = next }
        publish(.stateChanged(from: previous, to: next))
    }

    /// Records a fatal error: pipeline to NULL, state `error`, event (loop thread).
    func fail(_ error: PlayerError) {
        if let element = playbin {
            gst_element_set_state(element, GST_STATE_NULL)
            pipelineState = GST_STATE_NULL
        }
        seekTimer?.destroy(); seekTimer = nil
        openWatchdog?.destroy(); openWatchdog = nil
        targetState = GST_STATE_NULL
        inputs.loaded = true
        inputs.failed = true
        inputs.stopping = false
        hub.updateSnapshot { $0.lastError = error }
        updateState()
        publish(.error(error))
    }

    // MARK: Position

    /// The position timer: reports position (and duration while unknown) while PLAYING.
    private func positionTick() {
        guard pipelineState == GST_STATE_PLAYING, inputs.prerolled, !inputs.seeking, !inputs.ended else { return }
        reportPosition()
    }

    /// Queries position (and duration if unknown) and publishes a position event.
    func reportPosition() {
        guard let element = playbin else { return }
        if duration == nil { queryDuration() }
        guard let position = queryPosition(element) else { return }
        hub.updateSnapshot { $0.position = position }
        publish(.position(position, duration: duration))
    }

    func queryPosition(_ element: UnsafeMutablePointer<GstElement>) -> MediaTime? {
        var value: gint64 = 0
        guard gst_element_query_position(element, GST_FORMAT_TIME, &value) != 0, value >= 0 else { return nil }
        return MediaTime(nanoseconds: Int64(value))
    }

    /// Queries the duration (`gst_element_query_duration`); publishes when it changed.
    func queryDuration() {
        guard let element = playbin, !isLive else { return }
        var value: gint64 = 0
        let known: MediaTime? = gst_element_query_duration(element, GST_FORMAT_TIME, &value) != 0 && value > 0
            ? MediaTime(nanoseconds: Int64(value)) : nil
        guard let known else { return }
        duration = known
        // Re-queries after DURATION_CHANGED often differ by nanoseconds: not a change to announce.
        if let published = publishedDuration, abs(published.nanoseconds - known.nanoseconds) < 1_000_000 { return }
        publishedDuration = known
        hub.updateSnapshot { $0.duration = known }
        publish(.durationChanged(known))
    }

    // MARK: Helpers

    func publish(_ event: PlayerEvent) { hub.publish(event) }

    /// Diagnostics on stderr when `GSTPLAY_TRACE` is set in the environment (loop thread).
    static let tracing = getenv("GSTPLAY_TRACE") != nil
    func trace(_ text: @autoclosure () -> String) {
        guard Engine.tracing else { return }
        FileHandle.standardError.write(Data("gstplay-trace: \(text())\n".utf8))
    }

    /// Monotonic nanoseconds (`g_get_monotonic_time` is µs).
    static func now() -> UInt64 { UInt64(g_get_monotonic_time()) * 1000 }
}
