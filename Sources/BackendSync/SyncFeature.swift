import BackendCore
import BackendQueue
import CGStreamer
import GLibSupport
import Glibc

/// Playing in sync across machines, on GStreamer's network clock (docs/ADR-005-sync.md): a
/// leader serves its pipeline clock (`GstNetTimeProvider`) and publishes what it plays
/// (``SyncSession``); followers slave their pipeline to a `GstNetClientClock` of the leader's,
/// take the base time out of their pipeline's hands and set it so that every stream position is
/// rendered when the leader renders it, with one fixed pipeline latency for all.
///
/// The leader's side is `SyncLeader`, the follower's `SyncFollower`; this type plugs the one
/// chosen by ``SyncSettings/role`` into the player. Its state is in the snapshot
/// (``SyncSnapshot``, `player.syncStatus`); a follower announces ``SyncEvent/locked(leader:offset:rtt:)``
/// and ``SyncEvent/lost(leader:reason:)``.
///
/// Rate changes must be flushing seeks in a sync group (``PlayerConfiguration/instantRateChange``
/// false, as gstplay sets it): an instant rate change brings no new segment, so neither the
/// leader's session nor a follower's base time would see it.
///
/// **Thread:** `PlayerFeature` calls on the loop thread; `init` any thread.
public final class SyncFeature: PlayerFeature {
    /// The settings it was made with.
    public let settings: SyncSettings
    private let segments = SegmentWatch()
    private let server: SyncServer?
    // Loop thread only:
    private var role: (any SyncPart)?
    private var context: FeatureContext?
    private var tick: TimerSource?

    /// A sync feature for `settings`. A leader opens its doors now (HTTP and the clock, on one
    /// port number) and throws ``SyncError`` when it cannot; a follower connects once attached.
    public init(settings: SyncSettings) throws(SyncError) {
        self.settings = settings
        if case .leader(let endpoint) = settings.role {
            server = try SyncServer(endpoint: endpoint, realtimeClock: settings.realtimeRendering)
        } else {
            server = nil
        }
    }

    /// The port a leader serves on (the one picked when 0 was asked), nil for a follower.
    public var leaderPort: UInt16? { server?.port }

    public func attach(to context: FeatureContext) {
        self.context = context
        let sinks = [context.video.sink, context.pipeline.audioSink].compactMap { $0 }
        segments.watch(sinks)
        if settings.realtimeRendering {
            RenderScheduling.raiseRenderThreads(of: sinks) { outcome in DebugLog.log("sync: a render thread is \(outcome.rawValue)") }
        }
        let timing = context.pipeline
        switch settings.role {
        case .leader(let endpoint):
            guard let server else { return }
            role = SyncLeader(context: context, timing: timing, segments: segments, server: server,
                              endpoint: SyncEndpoint(host: endpoint.host, port: server.port), latency: settings.latency)
        case .follower(let leader, let clock):
            role = SyncFollower(context: context, timing: timing, segments: segments, settings: settings, leader: leader, clockOverride: clock)
        }
        role?.start()
        tick = context.loop.addTimer(every: .milliseconds(250)) { [weak self] in
            self?.role?.tick()
            return true
        }
    }

    public func teardown() {
        tick?.destroy()
        tick = nil
        role?.stop()
        role = nil
        server?.close()
    }

    public func resetForNewMedia(uri: String?) {
        segments.forget()
        role?.mediaChanged(uri: uri)
    }

    public func observe(_ event: PlayerEvent) {
        switch event {
        case .stateChanged, .seekDone, .uriLoaded, .rateChanged, .endOfStream, .error:
            // After the event is delivered: the pipeline's base time and segment are in place then.
            context?.runOnLoop { [weak self] in self?.role?.changed(by: event) }
        default:
            break
        }
    }

    public func seekIssued(to position: MediaTime) { role?.seekIssued() }

    public func contributeStatistics(to sections: inout FeatureSections) {}
}

/// A role's side of ``SyncFeature``. **Thread:** loop thread.
protocol SyncPart: AnyObject {
    func start()
    func stop()
    func tick()
    func changed(by event: PlayerEvent)
    func seekIssued()
    func mediaChanged(uri: String?)
}

extension SyncPart {
    func seekIssued() {}
}

/// The queue's current item in `snapshot`: its index and id (nil, nil without a queue or an item).
func queuePlace(in snapshot: PlayerSnapshot) -> (index: Int?, id: Int?) {
    guard let queue = snapshot.features[QueueSnapshot.self], let index = queue.currentIndex, queue.items.indices.contains(index) else {
        return (nil, nil)
    }
    return (index, queue.items[index].id)
}

/// A point of a playing pipeline's timeline for ``SyncSnapshot``: the clock now and the position
/// the pipeline plays at it (before latency), nil unless it plays with a segment known.
func timelinePoint(clock: UnsafeMutablePointer<GstClock>?, timing: FeaturePipeline, segments: SegmentWatch) -> (UInt64, Int64, UInt64)? {
    guard let clock, timing.settledState == GST_STATE_PLAYING, let mapping = segments.mapping else { return nil }
    let now = UInt64(gst_clock_get_time(clock))
    var monotonic = timespec()
    clock_gettime(CLOCK_MONOTONIC, &monotonic)
    return (now, mapping.position(atRunningTime: timing.runningTime(at: now, playing: true)),
            UInt64(monotonic.tv_sec) * 1_000_000_000 + UInt64(monotonic.tv_nsec))
}
