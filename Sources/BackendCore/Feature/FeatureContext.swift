import CGStreamer
import GLibSupport

/// What a ``PlayerFeature`` may see and do in the player core: publish events and its snapshot
/// section, read the snapshot and the load's progress, reach the loop thread, register at the
/// extension points (FeatureContext+Extensions.swift), and a few named capabilities, each a
/// small group of its own: ``media`` (the media's facts), ``transport`` (the player's commands),
/// ``route``, ``download``, ``video``, ``loop`` (timers, watches, signal handlers) and
/// ``pipeline``. Narrow on purpose — a feature never reaches the engine itself, so the core's
/// state keeps one owner.
///
/// **Thread:** loop thread only (every ``PlayerFeature`` call runs there), hence not `Sendable`:
/// another thread reaches a feature through a ``LoopConfined`` handle (``confine(_:)``), never
/// through the context. Commands act at once, in the middle of the current handler; events
/// still leave after it returns.
public final class FeatureContext {
    unowned let engine: Engine
    /// The loop thread, for the handles ``confine(_:)`` makes (they outlive the engine safely:
    /// their work is refused once the loop has quit).
    private let loopThread: MainLoopThread

    init(engine: Engine) {
        self.engine = engine
        self.loopThread = engine.loop
    }

    /// The player's settings.
    public var configuration: PlayerConfiguration { engine.configuration }
    /// What the state model knows about the current load.
    public var progress: PlaybackProgress { PlaybackProgress(engine.playback.inputs) }
    /// Everything the getters will know once the current handler returns (one lock), the
    /// changes made so far in this handler included.
    public var snapshot: PlayerSnapshot { engine.hub.workingSnapshot }

    /// Queues `event` for delivery after the current handler returns (the one delivery path).
    public func publish(_ event: PlayerEvent) { engine.publish(event) }

    /// Publishes a feature's own event (``PlayerEvent/feature(_:)``).
    public func publish(_ payload: some FeatureEventPayload) { engine.publish(.feature(FeatureEvent(payload))) }

    /// Writes the feature's section of the snapshot getters read (``PlayerSnapshot/features``).
    public func updateSnapshot<Section: FeatureSection>(_ section: Section) {
        engine.hub.updateSnapshot { $0.features[Section.self] = section }
    }

    /// Queues `work` on the loop thread, after the current handler and the work queued before it
    /// (`g_main_context_invoke_full`): for what a notification must not do in place (load, seek,
    /// act on an event). False once the loop has quit. **Thread:** loop thread (a precondition):
    /// `work` is not `Sendable`, as it stays on this thread; another thread comes back through a
    /// handle (``confine(_:)``, ``LoopConfined/runOnLoop(_:)``).
    @discardableResult
    public func runOnLoop(_ work: @escaping () -> Void) -> Bool {
        precondition(loopThread.isOnLoopThread, "FeatureContext.runOnLoop called off the loop thread")
        return loopThread.invoke(work)
    }

    /// A `Sendable` handle on `object` (a feature, or a part of one) that other threads carry to
    /// reach it on the loop thread — a streaming thread's signal handler, a worker's answer:
    /// `handle.runOnLoop { $0?.arrived(cue) }`. Holds `object` weakly (nil once it is gone), so a
    /// handle kept by a pipeline's element does not keep the feature alive.
    public func confine<Object: AnyObject>(_ object: Object) -> LoopConfined<Object?> {
        LoopConfined(weak: object, on: loopThread)
    }

    /// Diagnostics in GStreamer's debug log: category `gstplay`, level `DEBUG`
    /// (`gst_debug_log_literal`; `GST_DEBUG=gstplay*:5` shows them), with the caller's file,
    /// function and line; `text` is built only when the category's threshold lets it through.
    public func trace(_ text: @autoclosure () -> String, file: StaticString = #fileID, function: StaticString = #function,
                      line: UInt = #line) {
        engine.trace(text(), file: file, function: function, line: line)
    }

    /// Monotonic time in nanoseconds (`g_get_monotonic_time`). **Thread:** any.
    public static func now() -> UInt64 { Engine.now() }

    /// The media's facts as the core knows them (``FeatureMedia``).
    public var media: FeatureMedia { FeatureMedia(context: self) }
    /// The player's commands, as a feature issues them (``FeatureTransport``).
    public var transport: FeatureTransport { FeatureTransport(context: self) }
    /// The playback route extension point (``FeatureRoute``).
    public var route: FeatureRoute { FeatureRoute(context: self) }
    /// The load's download file (``FeatureDownload``).
    public var download: FeatureDownload { FeatureDownload(context: self) }
    /// The video sink, the filter and overlay slots, and the picture (``FeatureVideo``).
    public var video: FeatureVideo { FeatureVideo(context: self) }
    /// Timers, watches and signal handlers on the loop thread (``FeatureLoop``).
    public var loop: FeatureLoop { FeatureLoop(context: self) }
    /// What a feature may do with `playbin`, by named operations (``FeaturePipeline``).
    public var pipeline: FeaturePipeline { FeaturePipeline(context: self) }

    /// The start position of the load being decided, during ``URIResolver/resolve(_:)`` (nil
    /// otherwise): a resolver that answers ``LoadDecision/wait`` passes it to ``FeatureTransport/load(_:start:)``.
    var loadingStart: StartPosition?
    /// Set while the features' ``PlayerFeature/prerolled()`` run (``FeatureTransport/seek(_:mode:)`` keeps the seek then).
    var inPrerolled = false
    /// What features registered at the extension points (FeatureContext+Extensions.swift).
    var extensions = FeatureExtensions()
    /// The frames before the overlays, kept for snapshots (set when an overlay was added).
    var framesUnderOverlays: FramesUnderOverlays?
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
