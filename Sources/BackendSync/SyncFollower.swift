import BackendCore
import CGStreamer
import CGstNet
import GLibSupport
import Synchronization

/// The follower's side of ``SyncFeature``: a control connection to the leader
/// (``SyncControlClient``) brings each ``SyncSession``; a `GstNetClientClock` on the leader's clock
/// port becomes the pipeline's clock. For each session it makes the pipeline play what the
/// leader plays, in step (``reconcile()``, one step at a time, again after every event that
/// may let it go on):
///
/// 1. the clock is synchronised (`gst_clock_is_synced`) — until then nothing plays;
/// 2. the same media is loaded, paused;
/// 3. paused sessions: seek (accurate) to the leader's paused position;
/// 4. playing sessions: when the next position would be rendered too late (a late join, a seek on
///    the leader), pause and seek to the position the leader plays after the join margin; then
///    fix the base time from the session and this pipeline's segment
///    (``SyncTiming/pipelineBase(for:in:)``) and play.
///
/// A session that asks for the same playback as the one applied (a reconnection to the same
/// leader) changes nothing: playback goes on untouched. A lost leader (connection closed, or no
/// clock answer for ``SyncSettings/clockTimeout``) leaves the pipeline playing as it is, on its
/// clock as it runs, and is reported (``SyncEvent/lost(leader:reason:)``); the client reconnects
/// in the background and the clock keeps asking, and the next session re-locks.
///
/// **Thread:** loop thread, except the clock's statistics handler (the clock's thread, which
/// only goes back to the loop, through a handle: `FeatureContext.confine(_:)`).
final class SyncFollower: SyncPart {
    let context: FeatureContext
    let timing: FeaturePipeline
    let segments: SegmentWatch
    let settings: SyncSettings
    let leader: SyncEndpoint
    private let clockOverride: SyncEndpoint?
    private var client: SyncControlClient?
    // Loop thread only:
    var clock: UnsafeMutablePointer<GstClock>?
    private var clockEndpoint: SyncEndpoint?
    private var statsBus: UnsafeMutablePointer<GstBus>?
    var session: SyncSession?
    var applied: SyncSession?
    private var loadedURI: String?
    var connected = false
    var connectionNote = "connecting"
    var lastAnswer: UInt64?
    var offset: Int64?
    var rtt: UInt64?
    var locked = false
    private var seekPending = false

    init(context: FeatureContext, timing: FeaturePipeline, segments: SegmentWatch, settings: SyncSettings, leader: SyncEndpoint,
         clockOverride: SyncEndpoint?) {
        self.context = context
        self.timing = timing
        self.segments = segments
        self.settings = settings
        self.leader = leader
        self.clockOverride = clockOverride
    }

    /// How a follower's transport refusal reads (without the `gstplay:` prefix).
    static func refusal(leader: String) -> String { "following \(leader): transport commands go to the leader" }

    func start() {
        context.transport.handOver(refusal: Self.refusal(leader: leader.description))
        let follower = context.confine(self)
        let client = SyncControlClient(endpoint: leader, retry: settings.reconnectInterval, onSession: { session in
            follower.runOnLoop { $0?.received(session) }
        }, onConnection: { up, note in
            follower.runOnLoop { $0?.connection(up: up, note: note) }
        })
        self.client = client
        client.start()
        updateSnapshot()
    }

    func stop() {
        context.transport.handOver(refusal: nil)
        client?.close()
        client = nil
        releaseClock()
    }

    func mediaChanged(uri: String?) {
        seekPending = false
        if uri != loadedURI { applied = nil }
    }

    func seekIssued() { seekPending = true }

    func changed(by event: PlayerEvent) {
        if case .seekDone = event, !context.progress.seeking { seekPending = false }
        reconcile()
    }

    func tick() {
        reconcile()
    }

    // MARK: Inputs

    private func received(_ session: SyncSession) {
        self.session = session
        ensureClock(for: session)
        reconcile()
    }

    private func connection(up: Bool, note: String) {
        connected = up
        connectionNote = note
        reconcile()
    }

    // MARK: The clock

    private func ensureClock(for session: SyncSession) {
        let wanted = clockOverride ?? SyncEndpoint(host: leader.host, port: session.clockPort)
        guard wanted != clockEndpoint else { return }
        releaseClock()
        guard let made = gst_net_client_clock_new(nil, wanted.host, Int32(wanted.port), 0) else { return }
        let clock = made.assumingMemoryBound(to: GstClock.self)
        self.clock = clock
        clockEndpoint = wanted
        lastAnswer = nil
        // Statistics (rtt, corrections) go to a bus of our own, read where they are posted.
        if let bus = gst_bus_new() {
            statsBus = bus
            gst_bus_set_sync_handler(bus, { _, message, data in
                guard let message, let data else { return GST_BUS_DROP }
                if let structure = gst_message_get_structure(message), gst_structure_has_name(structure, "gst-netclock-statistics") != 0 {
                    var discontinuity: gint64 = 0, average: guint64 = 0
                    _ = gst_structure_get_int64(structure, "discontinuity", &discontinuity)
                    _ = gst_structure_get_uint64(structure, "rtt-average", &average)
                    let follower = Unmanaged<WeakFollower>.fromOpaque(data).takeUnretainedValue()
                    guard follower.isPublished else { return GST_BUS_DROP }
                    follower.clockThread?.raiseIfNew()      // this is the clock's own thread
                    follower.follower.runOnLoop { [offset = Int64(discontinuity), rtt = UInt64(average)] in
                        $0?.answered(offset: offset, rtt: rtt)
                    }
                }
                return GST_BUS_DROP
            }, Unmanaged.passRetained(WeakFollower(context.confine(self), raising: settings.realtimeRendering)).toOpaque(), callbackBoxRelease)
            CGStreamer_set_object(UnsafeMutableRawPointer(clock), "bus", UnsafeMutableRawPointer(bus))
        }
        ClockTuning.apply(to: clock)
        timing.useClock(clock)
        context.trace("sync: following the clock at \(wanted)")
    }

    private func releaseClock() {
        if let clock {
            CGStreamer_set_object(UnsafeMutableRawPointer(clock), "bus", nil)
            gst_object_unref(UnsafeMutableRawPointer(clock))
        }
        if let statsBus {
            gst_bus_set_sync_handler(statsBus, nil, nil, nil)
            gst_object_unref(UnsafeMutableRawPointer(statsBus))
        }
        clock = nil
        statsBus = nil
        clockEndpoint = nil
    }

    private func answered(offset: Int64, rtt: UInt64) {
        lastAnswer = FeatureContext.now()
        self.offset = offset
        self.rtt = rtt
    }

    /// Whether the clock is synchronised and answered lately.
    var clockFresh: Bool {
        guard let clock, gst_clock_is_synced(clock) != 0, let lastAnswer else { return false }
        return FeatureContext.now() &- lastAnswer < UInt64(settings.clockTimeout.nanoseconds)
    }

    // MARK: Following

    /// One step towards playing the session in force (see the type's description).
    private func reconcile() {
        defer { updateLock() }
        guard let session, let clock, gst_clock_is_synced(clock) != 0 else { return }
        if let applied, applied.samePlayback(as: session) {
            self.applied = session
            return
        }
        guard let uri = session.uri.map(resolve) else {
            if context.progress.loaded { context.transport.stop() }
            loadedURI = nil
            applied = session
            return
        }
        if uri != loadedURI || !context.progress.loaded {
            loadedURI = uri
            seekPending = false
            context.transport.load(uri)
            context.transport.intent = .pause
            return
        }
        let progress = context.progress
        guard progress.prerolled, !progress.failed, !progress.seeking, !seekPending, let state = timing.settledState,
              state == GST_STATE_PAUSED || state == GST_STATE_PLAYING, let mapping = segments.mapping else { return }
        let now = UInt64(gst_clock_get_time(clock))
        let playing = state == GST_STATE_PLAYING
        let next = mapping.position(atRunningTime: timing.runningTime(at: now, playing: playing))
        switch session.state {
        case .stopped:
            return      // handled above (no uri)
        case .paused:
            if playing { context.transport.pause() }
            if abs(next - session.positionAtBase) > 1_000_000 {
                return seek(to: session.positionAtBase)
            }
            applied = session
        case .playing:
            if abs(context.snapshot.rate - session.rate) > 1e-9 {
                try? context.transport.setRate(session.rate)       // a flushing seek (no instant rate change in sync)
                seekPending = true
                return
            }
            if abs(mapping.rate - session.rate) > 1e-9 {             // an instant rate change left the segment as it was
                return seek(to: SyncTiming.joinPosition(now: now, margin: UInt64(settings.joinMargin.nanoseconds), in: session))
            }
            let base = SyncTiming.pipelineBase(for: mapping, in: session)
            if playing && Self.distance(base, timing.baseTime) < 1_000_000 {
                applied = session           // already on the leader's timeline (a reconnection)
                return
            }
            let margin: UInt64 = 100_000_000        // the time to set the state and render the first buffer
            let lateness = SyncTiming.lateness(of: next, now: now, margin: margin, in: session)
            let early = -lateness > Int64(settings.joinMargin.nanoseconds) + 2_000_000_000
            if lateness > 0 || early {
                let join = SyncTiming.joinPosition(now: now, margin: UInt64(settings.joinMargin.nanoseconds), in: session)
                return seek(to: join)
            }
            timing.setLatency(nanoseconds: session.latency)
            timing.fixBaseTime(base)
            context.transport.play()
            applied = session
            context.trace("sync: playing on the leader's timeline, base \(base), next \(next)")
        }
    }

    private func seek(to position: Int64) {
        if timing.settledState == GST_STATE_PLAYING { context.transport.pause() }
        seekPending = true
        context.transport.seek(.absolute(MediaTime(nanoseconds: max(0, position))), mode: .accurate)
    }

    private static func distance(_ a: UInt64, _ b: UInt64) -> UInt64 { a > b ? a - b : b - a }

    /// A session URI as this follower loads it: a path is on the leader's HTTP server.
    private func resolve(_ uri: String) -> String {
        uri.hasPrefix("/") ? "http://\(leader)\(uri)" : uri
    }
}

/// The follower as the clock's statistics handler holds it: a handle that reaches it (weakly)
/// on the loop thread.
/// The clock's thread gets it through GStreamer's bus, under GLib locks ThreadSanitizer cannot
/// see: the release store at the end of `init` and the acquire load in ``isPublished`` state that
/// order in atomics it does see (the clock's thread reads the box only after `isPublished`).
private final class WeakFollower: Sendable {
    let follower: LoopConfined<SyncFollower?>
    /// Raises the clock's thread on its first statistics (nil: left as it is).
    let clockThread: RenderScheduling.ThreadWatch?
    private let published = Atomic<Bool>(false)
    init(_ follower: LoopConfined<SyncFollower?>, raising: Bool = false) {
        self.follower = follower
        clockThread = raising ? RenderScheduling.ThreadWatch { outcome in DebugLog.log("sync: the clock's thread is \(outcome.rawValue)") } : nil
        published.store(true, ordering: .releasing)
    }
    /// True once made: read first by the clock's thread.
    var isPublished: Bool { published.load(ordering: .acquiring) }
}
