import CGStreamer
import Dispatch
import Synchronization

/// A media player: `playbin` running on its own `GMainContext` and thread.
///
/// **Threads:** every public method is safe from any thread. Commands record the intent and
/// are queued onto the player's loop thread (an idle source on its `GMainContext`), where all
/// GStreamer state lives; they return at once and run in the order they were issued — never
/// inline, not even from a delegate callback, so the engine is never re-entered. Getters answer
/// from a lock-protected snapshot without waiting. Events arrive on the loop thread (see
/// ``PlayerDelegate``), after the handler that raised them returns, and on ``events`` streams.
///
/// **Lifetime:** ``shutdown()`` (also run by `deinit`) sets the pipeline to NULL, removes every
/// bus watch, timer and signal handler, quits the loop and joins its thread. It is idempotent.
public final class Player: Sendable {
    /// The settings this player was created with.
    public let configuration: PlayerConfiguration

    let hub: EventHub
    private let loop: MainLoopThread
    let engine: Engine
    private let isShutDown = Atomic<Bool>(false)
    private let observerCounter = Atomic<UInt64>(0)

    /// The plugged-in capabilities, in the order the core calls them (``PlayerFeature``).
    public let features: [any PlayerFeature]

    /// Creates the loop thread and the `playbin` on it, then emits ``PlayerEvent/initialized``.
    /// - Parameters:
    ///   - configuration: fixed settings (intervals, sinks, rate range, autoplay…).
    ///   - features: the capabilities to plug in, called in this order (each instance belongs
    ///     to this player only).
    ///   - delegate: receives events (held weakly); can also be set later.
    public init(configuration: PlayerConfiguration = PlayerConfiguration(), features: [any PlayerFeature], delegate: (any PlayerDelegate)? = nil) {
        GStreamerRuntime.ensureInitialized()
        self.configuration = configuration
        self.features = features
        let hub = EventHub(delegateQueue: configuration.delegateQueue)
        hub.delegate = delegate
        self.hub = hub
        let loop = MainLoopThread(name: "gstplay-loop")
        self.loop = loop
        loop.afterDispatch = { [hub] in hub.flush() }
        var created: Engine?
        loop.invokeAndWait { created = Engine(configuration: configuration, features: features, loop: loop, hub: hub) }
        self.engine = created!
        hub.attach(player: self)
        loop.invoke { [engine] in engine.start() }
    }

    deinit { shutdown() }

    // MARK: Delegate and events

    /// The event receiver (weak). Any thread.
    public var delegate: (any PlayerDelegate)? {
        get { hub.delegate }
        set {
            hub.delegate = newValue
            loop.invoke {} // a dispatch: hands the new listener what waited for one
        }
    }

    /// A new stream of every event from now on, ending at ``shutdown()``. Any thread.
    /// Keeps the newest 4096 events if not consumed. Events raised before the player had its
    /// first listener (a delegate or a stream) are held for that one, so a stream made right
    /// after `init` starts with ``PlayerEvent/initialized``; later streams start from now.
    public var events: AsyncStream<PlayerEvent> {
        let stream = hub.makeStream()
        loop.invoke {} // a dispatch: hands the new listener what waited for one
        return stream
    }

    // MARK: Commands (any thread; run on the loop thread)

    /// Loads a URI (`file://`, `http://`, …) or a file path (relative paths are resolved against
    /// the current directory, `gst_filename_to_uri`) and starts prerolling: `READY`, set
    /// `playbin.uri`, `PAUSED`; then plays when ``PlayerConfiguration/autoplay`` is on.
    /// A location that cannot be turned into a URI ends in ``PlayerState/error``. A local FIFO
    /// (named pipe) is opened with `O_NONBLOCK` and read as a stream through `fdsrc` (`fd://N`),
    /// so the loop thread never waits for its writer; with none, the open watchdog ends the wait.
    ///
    /// - Parameters:
    ///   - location: a URI or a file path.
    ///   - startAt: where playback begins: a time, or a fraction of the duration
    ///     (honoured at preroll; a fraction waits for the duration when it is not known then).
    ///     Without it, playback begins at 0 — or at the end when the rate is negative.
    public func load(_ location: String, startAt: StartPosition? = nil) {
        let resolved = Result { () throws(PlayerError) -> String in try MediaLocation.uri(for: location) }
        command { $0.supersedeLoads(); $0.load(resolved, original: location, start: startAt) }
    }

    /// Plays (`gst_element_set_state(PLAYING)` once prerolled and not buffering). At the end of
    /// the stream it restarts from the beginning; after ``stop()`` it reloads the last URI.
    public func play() { command { $0.play() } }

    /// Pauses (`gst_element_set_state(PAUSED)`) and reports the position once.
    public func pause() { command { $0.pause() } }

    /// Pauses when playing, plays otherwise.
    public func togglePause() { command { $0.togglePause() } }

    /// Stops: `stopping → idle`, pipeline to READY; the URI is kept for ``play()``.
    public func stop() { command { $0.stop() } }

    /// Seeks to `position` (clamped to `0…duration`; at the duration the stream ends).
    /// Before preroll the request is kept and run once the pipeline reaches PAUSED; seeks closer
    /// than ``PlayerConfiguration/seekThrottle`` are coalesced, the latest winning.
    /// Maps to `gst_element_seek` with `GST_SEEK_FLAG_FLUSH` and ACCURATE or KEY_UNIT.
    public func seek(to position: MediaTime, mode: SeekMode? = nil) {
        let mode = mode ?? configuration.defaultSeekMode
        command { $0.requestSeek(.absolute(position), mode: mode) }
    }

    /// Seeks by `offset` from the current position (negative goes back).
    public func seek(by offset: MediaTime, mode: SeekMode? = nil) {
        let mode = mode ?? configuration.defaultSeekMode
        command { $0.requestSeek(.relative(offset), mode: mode) }
    }

    /// Seeks to a fraction (0…1) of the duration; waits for the duration while it is unknown.
    public func seek(toFraction fraction: Double, mode: SeekMode? = nil) {
        let mode = mode ?? configuration.defaultSeekMode
        command { $0.requestSeek(.fraction(fraction), mode: mode) }
    }

    /// Sets the playback rate. Throws ``PlayerError/Kind/invalidArgument`` (and changes nothing)
    /// for 0, non-finite values or values outside ``PlayerConfiguration/rateRange``. Applied with
    /// a flushing seek at the current position; kept across seeks and loads.
    public func setRate(_ rate: Double) throws(PlayerError) {
        guard rate.isFinite, rate != 0, configuration.rateRange.contains(rate) else {
            throw PlayerError(kind: .invalidArgument,
                              message: "rate \(rate) is outside the allowed range \(configuration.rateRange.lowerBound)…\(configuration.rateRange.upperBound) (and must not be 0)")
        }
        command { $0.setRate(rate) }
    }

    /// Sets the linear volume (`playbin.volume`; 1.0 is unity, clamped to 0…10).
    public func setVolume(_ volume: Double) {
        let value = volume.isFinite ? min(max(volume, 0), 10) : 1
        command { $0.setVolume(value) }
    }

    /// Mutes or unmutes (`playbin.mute`).
    public func setMuted(_ muted: Bool) { command { $0.setMuted(muted) } }

    /// Stops playback and releases everything: pipeline to NULL, sources removed, signals
    /// disconnected, loop quit, thread joined, streams finished. Idempotent; any thread
    /// (from the loop thread itself the join is skipped and the thread ends on its own).
    public func shutdown() {
        guard !isShutDown.exchange(true, ordering: .acquiringAndReleasing) else { return }
        loop.invokeAndWait { [engine] in engine.teardown() }
        loop.quitAndJoin()
        hub.close()
    }

    // MARK: Time observers (any thread)

    /// Calls `block` every `interval` of wall time while playing (with the position), and once
    /// whenever a seek lands. The block runs on `queue`, or on the loop thread when nil.
    /// Like AVPlayer's `addPeriodicTimeObserver(forInterval:queue:using:)`.
    @discardableResult
    public func addPeriodicTimeObserver(interval: Duration, queue: DispatchQueue? = nil,
                                        _ block: @escaping @Sendable (MediaTime) -> Void) -> TimeObserverToken {
        let observer = TimeObserver(token: nextObserverToken(), kind: .periodic(interval: interval), queue: queue, block: block)
        command { $0.addObserver(observer) }
        return observer.token
    }

    /// Calls `block` with the boundary time each time continuous playback crosses one of
    /// `times` (in the direction of playback; checked every 20 ms). A seek that jumps over a
    /// boundary does not fire it; playing through it again after seeking back does.
    /// Like AVPlayer's `addBoundaryTimeObserver(forTimes:queue:using:)`.
    @discardableResult
    public func addBoundaryTimeObserver(times: [MediaTime], queue: DispatchQueue? = nil,
                                        _ block: @escaping @Sendable (MediaTime) -> Void) -> TimeObserverToken {
        let observer = TimeObserver(token: nextObserverToken(), kind: .boundary(times: times.sorted()), queue: queue, block: block)
        command { $0.addObserver(observer) }
        return observer.token
    }

    /// Removes an observer; its block is not called after the removal has run on the loop
    /// thread (for a queue-less observer: after this call returns when called on the loop).
    public func removeTimeObserver(_ token: TimeObserverToken) {
        command { $0.removeObserver(token) }
    }

    private func nextObserverToken() -> TimeObserverToken {
        TimeObserverToken(id: observerCounter.add(1, ordering: .relaxed).newValue)
    }

    // MARK: Getters (any thread, from the snapshot)

    /// A consistent copy of everything the getters know.
    public var snapshot: PlayerSnapshot { hub.snapshot }
    /// The explicit player state.
    public var state: PlayerState { hub.snapshot.state }
    /// The last known position.
    public var position: MediaTime? { hub.snapshot.position }
    /// The duration, when known.
    public var duration: MediaTime? { hub.snapshot.duration }
    /// The video display size, if any.
    public var mediaSize: VideoSize? { hub.snapshot.mediaSize }
    /// The latest statistics (refreshed on every statistics tick and on ``refreshStatistics()``).
    public var statistics: PlayerStatistics { hub.statistics }

    /// The position right now, from a pipeline query (`gst_element_query_position`) on the
    /// loop thread — fresher than ``position``, which is the last tick. Waits for the loop
    /// (runs inline when called on it); nil when nothing is loaded or the player is shut down.
    public func currentPosition() -> MediaTime? {
        guard !isShutDown.load(ordering: .acquiring) else { return nil }
        let result = Mutex<MediaTime?>(nil)
        loop.invokeAndWait { [engine] in
            let position = engine.playback.inputs.prerolled ? engine.pipeline?.queryPosition() : nil
            result.withLock { $0 = position }
        }
        return result.withLock { $0 }
    }

    /// Collects fresh statistics on the loop thread and returns them (waits for the loop;
    /// do not call while holding a lock the delegate needs).
    public func refreshStatistics() -> PlayerStatistics {
        guard !isShutDown.load(ordering: .acquiring) else { return hub.statistics }
        loop.invokeAndWait { [engine] in engine.collectStatistics(publish: false) }
        return hub.statistics
    }

    /// The GStreamer version in use, e.g. "GStreamer 1.22.0" (`gst_version_string`).
    public static var gstreamerVersion: String { GStreamerRuntime.versionString }

    /// The linked GStreamer library's version number, e.g. "1.22.0" (`gst_version`; needs no
    /// `gst_init`, so `--version` stays fast). Any thread.
    public static var gstreamerVersionNumber: String { GStreamerRuntime.versionNumber }

    // MARK: Features

    /// The feature of type `type` given at init, nil when there is none. Any thread.
    public func feature<Feature: PlayerFeature>(_ type: Feature.Type) -> Feature? {
        for feature in features { if let match = feature as? Feature { return match } }
        return nil
    }

    /// Queues `body` on the loop thread with the feature of type `type` and the core's context,
    /// like every command (never inline); nothing runs when the player has no such feature or is
    /// shut down. The way a feature's public API reaches the loop thread. Returns whether `body`
    /// was queued (false: no such feature, or shut down), so a caller waiting for an answer can give up.
    @discardableResult
    public func withFeature<Feature: PlayerFeature>(_ type: Feature.Type,
                                                    _ body: @escaping @Sendable (Feature, FeatureContext) -> Void) -> Bool {
        guard let feature = feature(type) else { return false }
        return query { engine in body(feature, engine.context) }
    }

    /// Runs `body` on the loop thread with the feature of type `type` and the core's context, and
    /// waits for it (`g_main_context_invoke`; inline when already on the loop thread, like
    /// ``currentPosition()``). False, without running it, when the player has no such feature or
    /// is shut down. For a feature's blocking getters (a snapshot for callers that cannot `await`).
    @discardableResult
    public func withFeatureAndWait<Feature: PlayerFeature>(_ type: Feature.Type,
                                                           _ body: @escaping (Feature, FeatureContext) -> Void) -> Bool {
        guard let feature = feature(type) else { return false }
        return queryAndWait { engine in body(feature, engine.context) }
    }

    // MARK: Internals

    /// Queues a command on the loop thread unless the player is shut down.
    func command(_ body: @escaping (Engine) -> Void) {
        guard !isShutDown.load(ordering: .acquiring) else { return }
        loop.invoke { [engine] in body(engine) }
    }

    /// The adaptive monitor's snapshot (its own lock; any thread) for ``adaptiveInfo``.
    func engineAdaptiveInfo() -> AdaptiveInfo { engine.adaptive.info }

    /// Queues `body` on the loop thread like ``command(_:)``; false (and `body` never runs)
    /// once the player is shut down, so callers waiting for an answer can give up.
    func query(_ body: @escaping (Engine) -> Void) -> Bool {
        guard !isShutDown.load(ordering: .acquiring) else { return false }
        return loop.invoke { [engine] in body(engine) }
    }

    /// Runs `body` on the loop thread and waits for it (inline when already there, like
    /// ``currentPosition()``); false, without running it, once the player is shut down.
    func queryAndWait(_ body: @escaping (Engine) -> Void) -> Bool {
        guard !isShutDown.load(ordering: .acquiring) else { return false }
        loop.invokeAndWait { [engine] in body(engine) }
        return true
    }

    /// Test hook: runs `body` on the loop thread with the engine and waits.
    func withEngine(_ body: @escaping (Engine) -> Void) {
        loop.invokeAndWait { [engine] in body(engine) }
    }
}
