import CGStreamer
import Dispatch
import GLibSupport

/// A media player: `playbin` running on its own `GMainContext` and thread.
///
/// **Threads:** every public method is safe from any thread. Commands record the intent and
/// are queued onto the player's loop thread (an idle source on its `GMainContext`), where all
/// GStreamer state lives; they return at once and run in the order they were issued — never
/// inline, not even from a delegate callback. Getters answer without waiting from one
/// lock-protected snapshot (``snapshot``, ``statistics`` and the features' sections share the
/// lock), so two getters answer from the same moment.
///
/// **One delivery path:** events, delegate calls and time-observer calls are raised on the
/// loop thread into one outbox and leave it in the order raised, after the handler that raised
/// them has returned: on the loop thread, or on ``PlayerConfiguration/delegateQueue`` (events)
/// and each observer's own queue (time observers); events also go to ``events`` streams.
///
/// **Nothing re-enters the engine.** A callback on the loop thread (a delegate without a queue,
/// a time observer without a queue) runs while no engine code does, and no call it makes runs
/// engine code inline: commands are queued, and the calls that otherwise wait for the loop
/// cannot wait for their own thread, so there they answer from the snapshot instead —
/// ``currentPosition()-wf4`` returns ``position``, ``refreshStatistics()-2mpxy`` returns ``statistics``,
/// ``withFeatureAndWait(_:_:)`` refuses (a feature's blocking getter answers from its snapshot
/// section, or throws: `snapshotNow()` does; its `async` `snapshot()` works anywhere), and
/// ``shutdown()`` refuses commands at once and tears down right after the callback returns.
/// The `async` overloads of `currentPosition()` and `refreshStatistics()` wait for the loop
/// without blocking any thread.
///
/// **Lifetime:** ``shutdown()`` (also run by `deinit`) sets the pipeline to NULL, removes every
/// bus watch, timer and signal handler, quits the loop and joins its thread. It is idempotent.
public final class Player: Sendable {
    /// The settings this player was created with.
    public let configuration: PlayerConfiguration

    let hub: EventHub
    private let loop: MainLoopThread
    /// The engine, and through it the features: they live on the loop thread (``LoopConfined``).
    let engine: LoopConfined<Engine>
    /// The plugged-in features' types, in the order the core calls them, for ``hasFeature(_:)``
    /// (the features themselves live on the loop thread, with the engine).
    private let featureTypes: [any PlayerFeature.Type]

    /// Creates the loop thread and the `playbin` on it, then emits ``PlayerEvent/initialized``.
    /// - Parameters:
    ///   - configuration: fixed settings (intervals, sinks, rate range, autoplay…).
    ///   - features: the capabilities to plug in, called in this order (each instance belongs
    ///     to this player only, and from now on to its loop thread: keep no reference to use
    ///     elsewhere — reach a feature with ``withFeature(_:_:)``).
    ///   - delegate: receives events (held weakly); can also be set later.
    public init(configuration: PlayerConfiguration = PlayerConfiguration(), features: [any PlayerFeature], delegate: (any PlayerDelegate)? = nil) {
        GStreamerRuntime.ensureInitialized()
        self.configuration = configuration
        self.featureTypes = features.map { type(of: $0) }
        let hub = EventHub(delegateQueue: configuration.delegateQueue)
        hub.delegate = delegate
        self.hub = hub
        let loop = MainLoopThread(name: "gstplay-loop")
        self.loop = loop
        loop.afterDispatch = { [hub] in hub.flush() }
        var created: Engine?
        loop.invokeAndWait { created = Engine(configuration: configuration, features: features, loop: loop, hub: hub) }
        let engine = LoopConfined(created!, on: loop)
        self.engine = engine
        hub.attach(player: self)
        engine.runOnLoop { $0.start() }
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
    public func play() {
        guard record(.pause, { $0.pauseRequested = false }) else { return }
        command { $0.play(fromSetter: true) }
    }

    /// Pauses (`gst_element_set_state(PAUSED)`) and reports the position once.
    public func pause() {
        guard record(.pause, { $0.pauseRequested = true }) else { return }
        command { $0.pause(fromSetter: true) }
    }

    /// Pauses when playing, plays otherwise.
    public func togglePause() {
        guard record(.pause, { $0.pauseRequested.toggle() }) else { return }
        command { $0.togglePause(fromSetter: true) }
    }

    /// Stops: `stopping → idle`, pipeline to READY; the URI is kept for ``play()``.
    public func stop() { command { $0.stop() } }

    /// Seeks to `position` (clamped to `0…duration`; at the duration the stream ends).
    /// Before preroll the request is kept and run once the pipeline reaches PAUSED; seeks closer
    /// than ``PlayerConfiguration/seekThrottle``, or made while one is in flight (until it lands,
    /// at most 2 s), are coalesced, the latest winning.
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
    /// for a rate ``PlaybackRate`` refuses: 0, non-finite, outside
    /// ``PlayerConfiguration/rateRange``, or closer to 0 than ``PlaybackRate/minimumMagnitude``.
    /// Applied with a flushing seek at the current position; kept across seeks and loads.
    ///
    /// The rate is in ``snapshot`` as soon as this returns (so a getter right after it, from any
    /// door, reads it); when the engine cannot apply it (a playback route plays at normal speed)
    /// the snapshot goes back to the rate that plays and ``PlayerEvent/rateChanged(_:)`` says so.
    public func setRate(_ rate: Double) throws(PlayerError) {
        try configuration.checkRate(rate)
        guard record(.rate, { $0.rate = rate }) else { return }
        command { $0.setRate(rate, fromSetter: true) }
    }

    /// Sets the linear volume (`playbin.volume`; 1.0 is unity, clamped to 0…10). The value is in
    /// ``snapshot`` as soon as this returns.
    public func setVolume(_ volume: Double) {
        let value = volume.isFinite ? min(max(volume, 0), 10) : 1
        guard record(.volume, { $0.volume = value }) else { return }
        command { $0.setVolume(value, fromSetter: true) }
    }

    /// Mutes or unmutes (`playbin.mute`). The flag is in ``snapshot`` as soon as this returns.
    public func setMuted(_ muted: Bool) {
        guard record(.muted, { $0.muted = muted }) else { return }
        command { $0.setMuted(muted, fromSetter: true) }
    }

    /// Flips the mute flag from the value ``snapshot`` holds now, in one step under its lock (so
    /// two quick toggles from two doors end where they began). Returns the new flag.
    @discardableResult
    public func toggleMuted() -> Bool {
        var toggled = false
        guard record(.muted, { $0.muted.toggle(); toggled = $0.muted }) else { return snapshot.muted }
        let muted = toggled
        command { $0.setMuted(muted, fromSetter: true) }
        return muted
    }

    /// Stores a setter's value in the snapshot at once (``EventHub/recordRequest(_:)``); false
    /// once the player is shut down (nothing is recorded then, as no command runs).
    private func record(_ request: EventHub.Request, _ body: (inout PlayerSnapshot) -> Void) -> Bool {
        hub.recordRequest(request, body)
    }

    /// Stops playback and releases everything: pipeline to NULL, sources removed, signals
    /// disconnected, loop quit, thread joined, streams finished. Idempotent; any thread.
    /// On the loop thread itself (a callback, or the last reference dropped there) it only
    /// begins: commands are refused from now on, and the teardown runs once the callback has
    /// returned (queued after the work already queued), its events are delivered, the loop
    /// quits and the thread ends on its own (no join).
    public func shutdown() {
        guard hub.beginShutdown() else { return }
        guard !loop.isOnLoopThread else {
            engine.runOnLoop { [loop, hub] engine in
                engine.teardown()
                hub.flush() // the teardown's events, before the streams end
                loop.quitAndJoin()
                hub.close()
            }
            return
        }
        engine.runOnLoopAndWait { $0.teardown() }
        loop.quitAndJoin()
        hub.close()
    }

    /// The GStreamer version in use, e.g. "GStreamer 1.22.0" (`gst_version_string`).
    public static var gstreamerVersion: String { GStreamerRuntime.versionString }

    /// The linked GStreamer library's version number, e.g. "1.22.0" (`gst_version`; needs no
    /// `gst_init`, so `--version` stays fast). Any thread.
    public static var gstreamerVersionNumber: String { GStreamerRuntime.versionNumber }

    // MARK: Features

    /// True when a feature of type `type` was given at init. Any thread (the feature itself is
    /// reached on the loop thread: ``withFeature(_:_:)``).
    public func hasFeature<Feature: PlayerFeature>(_ type: Feature.Type) -> Bool {
        featureTypes.contains { $0 is Feature.Type }
    }

    /// Queues `body` on the loop thread with the feature of type `type` and the core's context,
    /// like every command (never inline); nothing runs when the player has no such feature or is
    /// shut down. The way a feature's public API reaches the loop thread. Returns whether `body`
    /// was queued (false: no such feature, or shut down), so a caller waiting for an answer can give up.
    @discardableResult
    public func withFeature<Feature: PlayerFeature>(_ type: Feature.Type,
                                                    _ body: @escaping @Sendable (Feature, FeatureContext) -> Void) -> Bool {
        guard hasFeature(type) else { return false }
        return query { engine in body(engine.feature(type)!, engine.context) }
    }

    /// Runs `body` on the loop thread with the feature of type `type` and the core's context, and
    /// waits for it (an idle source and a semaphore). False, without running it, when the player
    /// has no such feature or is shut down, and on the loop thread itself, which cannot wait for
    /// itself (nothing re-enters the engine: the caller answers from the snapshot, like
    /// ``currentPosition()-wf4``). For a feature's blocking getters (a snapshot for callers that cannot `await`).
    @discardableResult
    public func withFeatureAndWait<Feature: PlayerFeature>(_ type: Feature.Type,
                                                           _ body: @escaping (Feature, FeatureContext) -> Void) -> Bool {
        guard hasFeature(type) else { return false }
        return queryAndWait { engine in body(engine.feature(type)!, engine.context) }
    }

    // MARK: Internals

    /// Queues a command on the loop thread unless the player is shut down.
    func command(_ body: @escaping @Sendable (Engine) -> Void) {
        guard !hub.isShutDown else { return }
        engine.runOnLoop(body)
    }

    /// Queues `body` on the loop thread like ``command(_:)``; false (and `body` never runs)
    /// once the player is shut down, so callers waiting for an answer can give up.
    func query(_ body: @escaping @Sendable (Engine) -> Void) -> Bool {
        guard !hub.isShutDown else { return false }
        return engine.runOnLoop(body)
    }

    /// Runs `body` on the loop thread and waits for it; false, without running it, once the
    /// player is shut down and on the loop thread itself (which cannot wait for itself: the
    /// caller answers from the snapshot, like ``currentPosition()``).
    func queryAndWait(_ body: @escaping (Engine) -> Void) -> Bool {
        guard !hub.isShutDown else { return false }
        return engine.runOnLoopAndWait(body)
    }

    /// True on this player's loop thread (a queue-less callback), where nothing may wait for it
    /// (`g_main_context_is_owner`). For the features' blocking getters, to say why they refused.
    package var isOnLoopThread: Bool { loop.isOnLoopThread }

    /// Test hook: runs `body` on the loop thread with the engine and waits (not on the loop
    /// thread itself, where it does nothing).
    func withEngine(_ body: @escaping (Engine) -> Void) {
        engine.runOnLoopAndWait(body)
    }
}
