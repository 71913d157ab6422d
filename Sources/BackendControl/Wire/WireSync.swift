import Backend

/// Sync's part of the `--json` protocol: the `sync-locked`, `sync-lost` and `sync-serving`
/// events (`SyncEvent`), the `sync` member of the `status` reply (present only when the player
/// leads or follows), and the text notes. Pure; any thread.
public enum WireSync {
    /// The `sync` member of `status`: `{"role":"follower","leader":"10.0.0.2:5800","locked":true,
    /// "offset_ns":120000,"rtt_ns":350000,"generation":4,"clock_time_ns":…,"position_at_clock":12.5}`.
    public struct Status: Encodable, Sendable, Equatable {
        /// `leader` or `follower`.
        public var role: String
        /// The leader's `HOST:PORT` (a leader's own).
        public var leader: String
        /// Locked to the leader (always true for a leader).
        public var locked: Bool
        /// Why not locked (absent when locked).
        public var reason: String?
        /// The follower clock's last correction, ns (absent before the first answer).
        public var offsetNs: Int64?
        /// The follower clock's average round trip to the leader, ns (absent before the first answer).
        public var rttNs: UInt64?
        /// The session's generation in force (absent before one).
        public var generation: Int?
        /// The session's id (random per leader run; absent before one).
        public var session: String?
        /// A point of this player's timeline: a clock time on the shared clock (ns)…
        public var clockTimeNs: UInt64?
        /// …and the stream position it plays then, ns (both absent unless playing).
        public var positionAtClockNs: Int64?
        /// `CLOCK_MONOTONIC` read with ``clockTimeNs`` (ns; on one machine, a follower's
        /// `clock_time_ns - monotonic_ns` is its network clock's error).
        public var monotonicNs: UInt64?

        /// The fields of `snapshot`.
        public init(_ snapshot: SyncSnapshot) {
            role = snapshot.role
            leader = snapshot.leader
            locked = snapshot.locked
            reason = snapshot.reason
            offsetNs = snapshot.offset
            rttNs = snapshot.rtt
            generation = snapshot.session?.generation
            session = snapshot.session?.session
            clockTimeNs = snapshot.clockTime
            positionAtClockNs = snapshot.positionAtClock
            monotonicNs = snapshot.monotonicTime
        }
    }

    struct Locked: Encodable, Sendable { var leader: String; var offsetNs: Int64; var rttNs: UInt64 }
    struct Lost: Encodable, Sendable { var leader: String; var reason: String }
    struct Serving: Encodable, Sendable { var url: String; var clockPort: UInt16 }

    /// The line for a sync event: `{"event":"sync-locked","leader":"…","offset_ns":…,"rtt_ns":…}`,
    /// `{"event":"sync-lost","leader":"…","reason":"…"}`, `{"event":"sync-serving","url":"…","clock_port":5800}`.
    public static func line(for event: SyncEvent) -> String {
        switch event {
        case .locked(let leader, let offset, let rtt):
            return Wire.line(WireEvent(event: "sync-locked", payload: Locked(leader: leader, offsetNs: offset, rttNs: rtt)))
        case .lost(let leader, let reason):
            return Wire.line(WireEvent(event: "sync-lost", payload: Lost(leader: leader, reason: reason)))
        case .serving(let url, let clockPort):
            return Wire.line(WireEvent(event: "sync-serving", payload: Serving(url: url, clockPort: clockPort)))
        }
    }

    /// The text note for a sync event (stderr in text mode): `gstplay: sync: locked to HOST:PORT
    /// (clock offset 0.12 ms, round trip 0.35 ms)`, `gstplay: sync: lost HOST:PORT: REASON; playing on`,
    /// `gstplay: sync: serving http://…/sync/session (clock on UDP PORT)`.
    public static func note(for event: SyncEvent) -> String {
        func ms(_ ns: Double) -> String { CFormat.number("%.2f", ns / 1_000_000) }
        switch event {
        case .locked(let leader, let offset, let rtt):
            return "gstplay: sync: locked to \(leader) (clock offset \(ms(Double(offset))) ms, round trip \(ms(Double(rtt))) ms)"
        case .lost(let leader, let reason):
            return "gstplay: sync: lost \(leader): \(reason); playing on"
        case .serving(let url, let clockPort):
            return "gstplay: sync: serving \(url) (clock on UDP \(clockPort))"
        }
    }
}
