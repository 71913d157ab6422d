import BackendCore
import CGStreamer
import GLibSupport

/// Adaptive streaming (HLS and MPEG-DASH) as a `PlayerFeature`: follows the demuxer inside
/// `playbin`, runs the ABR policy (``AdaptivePolicy``), reports variants, switches and stalls as
/// ``AdaptiveEvent``s, keeps ``AdaptiveInfo`` in the player's snapshot and the seed's ABR metrics
/// in the statistics, and marks a sliding-window stream live so that seeks stay in its window.
///
/// The work is done by an `AdaptiveMonitor`; this class routes the core's calls to it and owns
/// its 250 ms refresh timer (`g_timeout_source_new` through `FeatureContext.loop.addTimer(every:_:)`).
///
/// **Thread:** every method runs on the player's loop thread (`PlayerFeature`), the only one
/// that touches its state (it is not `Sendable`: `Player` holds it through a `LoopConfined` handle).
public final class AdaptiveFeature: PlayerFeature, MessageInterceptor {
    let monitor: AdaptiveMonitor
    private(set) var context: FeatureContext?
    private var timer: TimerSource?

    /// A feature that starts with `policy` (changeable later with `Player.setAdaptivePolicy(_:)`).
    public init(policy: AdaptivePolicy = AdaptivePolicy()) { monitor = AdaptiveMonitor(policy: policy) }

    /// Intercepts bus messages (`ExtensionOrder/adaptiveStreaming`), connects the element
    /// signals (the `AdaptiveMonitor`) and starts the refresh timer.
    public func attach(to context: FeatureContext) {
        self.context = context
        context.interceptMessages(self, order: .adaptiveStreaming)
        monitor.attach(to: context)
        timer = context.loop.addTimer(every: .milliseconds(250)) { [unowned self] in
            self.tick()
            return true
        }
    }

    /// Removes the timer, empties `Player.adaptiveInfo` and drops every element reference;
    /// element signals that still arrive before the core disconnects them keep none.
    public func teardown() {
        timer?.destroy()
        timer = nil
        monitor.reset(uri: nil)
        monitor.close()
    }

    /// Forgets the previous stream.
    public func resetForNewMedia(uri: String?) { monitor.reset(uri: uri) }

    /// Takes `adaptive-streaming-statistics` element messages and the hand-over BUFFERING levels
    /// of a variant switch (`isHandOverBuffering(_:)`); notes STREAM_START (the live edge's
    /// catch-up waits for it after a switch); reports a failed segment request
    /// seen in an `http-headers` message as a warning and passes that message on.
    public func intercept(_ message: UnsafeMutablePointer<GstMessage>) -> MessageDisposition {
        if CGStreamer_message_type(message) == GST_MESSAGE_BUFFERING {
            return isHandOverBuffering(message) ? .consumed : .proceed
        }
        if CGStreamer_message_type(message) == GST_MESSAGE_STREAM_START {
            monitor.streamStarted()
            if let context { streamStartedForLiveEdge(context) }
            return .proceed
        }
        guard CGStreamer_message_type(message) == GST_MESSAGE_ELEMENT, let context,
              let structure = gst_message_get_structure(message) else { return .proceed }
        switch String(cString: gst_structure_get_name(structure)) {
        case "adaptive-streaming-statistics":
            emit(monitor.handleStatistics(structure))
            return .consumed
        case "http-headers":
            if let failure = monitor.failedSegment(structure) {
                context.publish(.warning(PlayerError(kind: .network, element: CGStreamer_message_src_name(message).map { String(cString: $0) },
                                                     message: "segment request failed (HTTP \(failure.status)): \(failure.uri); the demuxer retries or skips it",
                                                     uri: context.media.uri, httpStatus: failure.status)))
            }
            return .proceed
        default:
            return .proceed
        }
    }

    /// Preroll: an adaptive stream without a duration is live (a sliding-window playlist).
    public func prerolled() {
        emit(monitor.tick(now: Self.seconds()))
        if monitor.isAdaptive { monitor.setLive(context?.media.duration == nil) }
        markLiveIfNeeded()
    }

    /// The pipeline playing starts the stall tracking; a buffering level the core acted on may
    /// start or end a stall.
    public func observe(_ event: PlayerEvent) {
        switch event {
        case .stateChanged(_, .playing): monitor.played()
        case .buffering(let percent): emit(monitor.buffering(percent: percent, now: Self.seconds()))
        default: break
        }
    }

    /// A seek was sent (the core's resolved target, in the live window's timeline): the live
    /// edge's latency counts from it until it lands (`LiveEdgeGuard/seekIssued(target:)`).
    public func seekIssued(to position: MediaTime) {
        if monitor.info.isLive { monitor.liveEdge.seekIssued(target: position.seconds) }
    }

    /// End of stream, stop, error or a new load: a running stall ends.
    public func finished() { emit(monitor.finished(now: Self.seconds())) }

    /// The seed's ABR metrics (``ABRMetrics``), for adaptive media only.
    public func contributeStatistics(to sections: inout FeatureSections) {
        if let metrics = monitor.metrics { sections[ABRMetrics.self] = metrics }
    }

    /// Replaces the whole policy and applies it at once (loop thread).
    func setPolicy(_ policy: AdaptivePolicy) { monitor.setPolicy(policy) }

    /// The policy in force (loop thread).
    var policy: AdaptivePolicy { monitor.policy }

    // MARK: Timer

    /// Every 250 ms while a load is active: variants, buffer level, the live window, the frozen-position watch.
    private func tick() {
        guard let context else { return }
        let progress = context.progress
        guard progress.isActive else { return }
        emit(monitor.tick(now: Self.seconds()))
        if monitor.info.isLive, progress.prerolled { followLiveEdge(context) }
        watchFrozenPosition(context)
    }

    /// Seed 004's loop for a stall GStreamer does not report (``StallTracker/watchLevel(frozenFor:bufferSeconds:minBuffer:holding:remaining:)``):
    /// the level is posted on playbin's bus as a buffering element would (`gst_message_new_buffering`),
    /// so the core's buffering rule pauses and resumes as for any BUFFERING message. A hold
    /// started by decodebin's own buffering is left to it.
    private func watchFrozenPosition(_ context: FeatureContext) {
        let progress = context.progress
        guard monitor.isAdaptive, progress.prerolled, !progress.ended, !progress.seeking, !progress.failed else {
            monitor.watch = .idle
            return
        }
        let now = Self.seconds()
        let position = context.media.queryPosition()
        let remaining = context.media.duration.flatMap { d in position.map { (d - $0).seconds } }
        let minBuffer = monitor.policy.effectiveMinBuffer
        let buffered = monitor.info.bufferSeconds ?? 0
        let level: Int?
        switch monitor.watch {
        case .holding(let posted):
            guard progress.buffering, context.media.lastBufferingPercent == posted else { monitor.watch = .moving(position, since: now); return }
            level = StallTracker.watchLevel(frozenFor: 0, bufferSeconds: buffered, minBuffer: minBuffer, holding: true, remaining: remaining)
        case .moving(let last, let since) where last == position && context.media.pipelineState == GST_STATE_PLAYING && !progress.buffering:
            level = StallTracker.watchLevel(frozenFor: now - since, bufferSeconds: buffered, minBuffer: minBuffer, holding: false, remaining: remaining)
        default:
            monitor.watch = .moving(position, since: now)
            return
        }
        guard let level, level != context.media.lastBufferingPercent else { return }
        monitor.watch = level < 100 ? .holding(level) : .moving(position, since: now)
        context.pipeline.postBuffering(percent: level)
    }

    // MARK: Helpers

    /// Publishes the monitor's events and marks the media live once the monitor found it so.
    private func emit(_ events: [AdaptiveEvent]) {
        for event in events { context?.publish(event) }
        markLiveIfNeeded()
    }

    /// A live adaptive stream becomes live media for the core (no duration, seeks in its window).
    private func markLiveIfNeeded() {
        guard let context, monitor.info.isLive, !context.media.isLive else { return }
        context.media.markLive()
    }

    /// Monotonic seconds (`FeatureContext.now()`).
    static func seconds() -> Double { Double(FeatureContext.now()) / 1e9 }
}

public extension ExtensionOrder {
    /// Adaptive streaming's rank among the message interceptors (after the media cache): it
    /// consumes the demuxer's statistics and a variant switch's hand-over buffering levels.
    static let adaptiveStreaming = ExtensionOrder(300)
}
