import BackendCore

/// Which part a player takes in a sync group (``SyncFeature``). A plain value; any thread.
public enum SyncRole: Sendable, Hashable {
    /// Leads: serves its clock on UDP `endpoint.port` and its session over HTTP on TCP
    /// `endpoint.port` (both on `endpoint.host`, `0.0.0.0` for every interface).
    case leader(endpoint: SyncEndpoint)
    /// Follows the leader whose HTTP server is `leader`; its clock is asked at `clock`
    /// (nil: the leader's host and the session's clock port).
    case follower(leader: SyncEndpoint, clock: SyncEndpoint?)
}

/// What a ``SyncFeature`` does. A plain value; any thread.
public struct SyncSettings: Sendable, Hashable {
    /// Leader or follower.
    public var role: SyncRole
    /// The pipeline latency every player of the group uses (`gst_pipeline_set_latency`); the
    /// leader publishes its own and followers use the leader's. 200 ms by default.
    public var latency: Duration = .milliseconds(200)
    /// How long a follower allows itself for a seek and a preroll when it joins a playing
    /// session (it seeks that far ahead of the leader). 1 s by default.
    public var joinMargin: Duration = .seconds(1)
    /// A follower reports `SyncEvent/lost(reason:)` when its clock had no answer from the leader
    /// for this long. 3 s by default.
    public var clockTimeout: Duration = .seconds(3)
    /// How often a follower tries to reach a leader it lost. 1 s by default.
    public var reconnectInterval: Duration = .seconds(1)
    /// Whether the threads that render (each sink's), stamp the clock's packets (a follower's
    /// `GstNetClientClock`, a leader's `GstNetTimeProvider`) ask for real-time scheduling, which
    /// keeps a loaded machine's wake-up delays out of the players' distance
    /// (`pthread_setschedparam(SCHED_FIFO)` where `CAP_SYS_NICE` or `RLIMIT_RTPRIO` allow it,
    /// else nice −10, else unchanged; docs/ADR-005-sync.md). True by default.
    public var realtimeRendering = true

    /// Settings for `role`, with the defaults.
    public init(role: SyncRole) { self.role = role }
}

/// A sync feature's events (``PlayerEvent/feature(_:)``). A plain value; any thread.
public enum SyncEvent: FeatureEventPayload {
    /// A follower locked: its clock is synchronised with the leader's and its pipeline plays on
    /// the leader's timeline. `offset`: the clock's last correction (ns), `rtt`: its average round
    /// trip to the leader (ns).
    case locked(leader: String, offset: Int64, rtt: UInt64)
    /// A follower lost its leader (the control connection dropped, or the clock had no answers):
    /// it keeps playing on its clock as it runs, and reconnects in the background.
    case lost(leader: String, reason: String)
    /// A leader is serving: its session at `url`, its clock on UDP `clockPort`.
    case serving(url: String, clockPort: UInt16)
}

/// The sync feature's part of the snapshot (``PlayerSnapshot/features``, JSON key `sync`). A
/// plain value; any thread.
public struct SyncSnapshot: FeatureSection {
    /// `"sync"`.
    public static let key = "sync"
    /// `leader` or `follower`.
    public var role: String
    /// The leader: for a leader, its own address (`HOST:PORT`); for a follower, the one it follows.
    public var leader: String
    /// A follower's lock: clock synchronised, control connected and the pipeline on the leader's
    /// timeline. Always true for a leader.
    public var locked: Bool
    /// The follower's clock's last correction (`discontinuity` of GstNetClientClock's
    /// statistics, ns): how far off it was when last corrected. Nil before the first answer.
    public var offset: Int64?
    /// The average round trip to the leader's clock (ns), nil before the first answer.
    public var rtt: UInt64?
    /// Why the follower is not locked (nil when locked or a leader).
    public var reason: String?
    /// The session in force (the leader's own, or the last one a follower received).
    public var session: SyncSession?
    /// One point of this player's timeline: the clock time `clockTime` (shared clock, ns) and
    /// the stream position it plays then (before latency); nil while not playing. Players in
    /// sync give points on the same line: the test of sync that needs no wall clock.
    public var clockTime: UInt64?
    /// The stream position of ``clockTime`` (ns).
    public var positionAtClock: Int64?
    /// This machine's `CLOCK_MONOTONIC` read right after ``clockTime`` (ns): on one machine, where
    /// the leader's clock is that clock, a follower's `clockTime - monotonicTime` is its network
    /// clock's error (what the tests print).
    public var monotonicTime: UInt64?

    /// A snapshot for `role` and `leader`.
    public init(role: String, leader: String, locked: Bool) {
        self.role = role
        self.leader = leader
        self.locked = locked
    }
}

public extension PlayerEvent {
    /// The sync feature's event, nil for other events.
    var syncEvent: SyncEvent? { payload(as: SyncEvent.self) }
}
