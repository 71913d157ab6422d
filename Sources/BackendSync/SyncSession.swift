#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What a sync leader plays, as its followers need it: the media, the transport state, and the
/// line that ties media positions to the shared network clock. Served as JSON by the leader
/// (`GET /sync/session`, and pushed whole on the WebSocket `/sync/events` after every change).
/// All times are integers in nanoseconds; clock times are on the leader's clock (the one its
/// `GstNetTimeProvider` serves).
///
/// The timing contract: while ``state`` is ``SyncPlayState/playing``, the stream position `p`
/// is rendered at clock time `baseTime + (p - positionAtBase) / rate + latency` on every player.
/// A plain value; any thread.
public struct SyncSession: Codable, Sendable, Hashable {
    /// The wire format's version (1).
    public var version = 1
    /// Random per leader run: a follower that sees another one knows the leader restarted.
    public var session: String
    /// Counts the leader's changes within one session.
    public var generation: Int
    /// What followers load: a local file is served by the leader's HTTP server (a URL on it),
    /// http(s) URIs as they are; nil when nothing is loaded.
    public var uri: String?
    /// Playing, paused or stopped.
    public var state: SyncPlayState
    /// The playback rate (positive; followers play at it).
    public var rate: Double
    /// The clock time at which ``positionAtBase`` plays, before ``latency`` (ns).
    public var baseTime: UInt64
    /// The stream position played at ``baseTime``; while paused, the paused position (ns).
    public var positionAtBase: Int64
    /// The pipeline latency every player uses (ns): rendering happens that long after the clock
    /// time a position maps to, the room followers have to apply a change.
    public var latency: UInt64
    /// The UDP port of the leader's clock (`GstNetTimeProvider`).
    public var clockPort: UInt16
    /// The item's place in the leader's playlist (0-based), nil when it has none.
    public var playlistIndex: Int?
    /// The leader's queue item id, nil when it has none.
    public var itemID: Int?

    enum CodingKeys: String, CodingKey {
        case version, session, generation, uri, state, rate, latency
        case baseTime = "base_time"
        case positionAtBase = "position_at_base"
        case clockPort = "clock_port"
        case playlistIndex = "playlist_index"
        case itemID = "item_id"
    }

    /// A session with these fields.
    public init(session: String, generation: Int, uri: String?, state: SyncPlayState, rate: Double, baseTime: UInt64,
                positionAtBase: Int64, latency: UInt64, clockPort: UInt16, playlistIndex: Int? = nil, itemID: Int? = nil) {
        self.session = session
        self.generation = generation
        self.uri = uri
        self.state = state
        self.rate = rate
        self.baseTime = baseTime
        self.positionAtBase = positionAtBase
        self.latency = latency
        self.clockPort = clockPort
        self.playlistIndex = playlistIndex
        self.itemID = itemID
    }

    /// The session as one line of JSON (sorted keys: equal sessions give equal text).
    public var json: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        guard let data = try? encoder.encode(self) else { return "{}" }
        return String(decoding: data, as: UTF8.self)
    }

    /// The session in `text`, nil when it is not one (or of another version).
    public static func decode(_ text: String) -> SyncSession? {
        guard let session = try? JSONDecoder().decode(SyncSession.self, from: Data(text.utf8)), session.version == 1,
              session.rate.isFinite, session.rate > 0 else { return nil }
        return session
    }

    /// Whether `other` asks followers for the same thing (only the generation differs).
    public func samePlayback(as other: SyncSession) -> Bool {
        var other = other
        other.generation = generation
        return other == self
    }
}

/// The leader's transport state in a ``SyncSession``.
public enum SyncPlayState: String, Codable, Sendable, Hashable {
    /// Playing: positions follow the clock.
    case playing
    /// Paused at ``SyncSession/positionAtBase``.
    case paused
    /// Nothing plays (stopped, ended, idle or failed).
    case stopped
}

/// The arithmetic of the timing contract (``SyncSession``): where a position plays on the clock,
/// which position plays at a clock time, the base time a follower's pipeline needs, and where a
/// late joiner seeks. Pure; any thread. Times in nanoseconds.
public enum SyncTiming {
    /// The stream position the session maps to clock time `clock` (before latency): while paused,
    /// the paused position.
    public static func position(at clock: UInt64, in session: SyncSession) -> Int64 {
        guard session.state == .playing else { return session.positionAtBase }
        let elapsed = Int64(bitPattern: clock &- session.baseTime)
        return session.positionAtBase + Int64((Double(elapsed) * session.rate).rounded())
    }

    /// The clock time (before latency) at which the session plays stream position `position`.
    public static func clockTime(of position: Int64, in session: SyncSession) -> UInt64 {
        let offset = Int64((Double(position - session.positionAtBase) / session.rate).rounded())
        return session.baseTime &+ UInt64(bitPattern: offset)
    }

    /// The base time for a pipeline whose segment maps running time `segmentBase` to stream
    /// position `segmentPosition` (a ``SegmentMapping``), so that it plays every position when
    /// the session does: `clockTime(segmentPosition) - segmentBase`.
    public static func pipelineBase(for mapping: SegmentMapping, in session: SyncSession) -> UInt64 {
        clockTime(of: mapping.streamPosition, in: session) &- mapping.runningTime
    }

    /// Where a follower joining at clock time `now` seeks so that it is ready in time: the
    /// position the session renders at `now + margin` (a seek and a preroll take that long at
    /// most), never before ``SyncSession/positionAtBase``.
    public static func joinPosition(now: UInt64, margin: UInt64, in session: SyncSession) -> Int64 {
        guard session.state == .playing else { return session.positionAtBase }
        return max(session.positionAtBase, position(at: now &+ margin &- session.latency, in: session))
    }

    /// How late a pipeline is that would play `positionNow` next: positive when the session
    /// renders it before `now + margin` (ns late), negative when it has room.
    public static func lateness(of position: Int64, now: UInt64, margin: UInt64, in session: SyncSession) -> Int64 {
        guard session.state == .playing else { return Int64.min }
        let renders = clockTime(of: position, in: session) &+ session.latency
        return Int64(bitPattern: now &+ margin &- renders)
    }
}

/// One point of a pipeline's segment: running time ``runningTime`` plays stream position
/// ``streamPosition`` (for a forward segment, the segment's `base` and its `time` + `offset`).
/// A plain value; any thread.
public struct SegmentMapping: Sendable, Hashable {
    /// A running time (ns).
    public var runningTime: UInt64
    /// The stream position played at it (ns).
    public var streamPosition: Int64
    /// The segment's rate.
    public var rate: Double

    /// A mapping of `runningTime` to `streamPosition` at `rate`.
    public init(runningTime: UInt64, streamPosition: Int64, rate: Double) {
        self.runningTime = runningTime
        self.streamPosition = streamPosition
        self.rate = rate
    }

    /// The stream position played at running time `running`.
    public func position(atRunningTime running: UInt64) -> Int64 {
        streamPosition + Int64((Double(Int64(bitPattern: running &- runningTime)) * rate).rounded())
    }
}

/// `HOST:PORT` (an IPv6 host in brackets), as `--sync-serve`, `--sync-to` and `--sync-clock`
/// take it. A plain value; any thread.
public struct SyncEndpoint: Sendable, Hashable, CustomStringConvertible {
    /// The host: a name or an IP address (without brackets).
    public var host: String
    /// The port.
    public var port: UInt16

    /// `host`:`port`.
    public init(host: String, port: UInt16) {
        self.host = host
        self.port = port
    }

    /// Parses `HOST:PORT`; with `defaultPort`, a bare `HOST` too. Nil for anything else (no host,
    /// a port outside 1…65535 — 0 too with `allowsPortZero`, for a server that picks its port —,
    /// an IPv6 address without brackets).
    public static func parse(_ text: String, defaultPort: UInt16? = nil, allowsPortZero: Bool = false) -> SyncEndpoint? {
        let text = String(text.drop(while: { $0 == " " }).reversed().drop(while: { $0 == " " }).reversed())
        var host = text, portText: Substring?
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]") else { return nil }
            host = String(text[text.index(after: text.startIndex)..<close])
            let rest = text[text.index(after: close)...]
            if !rest.isEmpty {
                guard rest.hasPrefix(":") else { return nil }
                portText = rest.dropFirst()
            }
        } else if let colon = text.lastIndex(of: ":") {
            host = String(text[..<colon])
            portText = text[text.index(after: colon)...]
            if host.contains(":") { return nil }
        }
        guard !host.isEmpty, !host.contains(where: { $0.isWhitespace || $0 == "/" }) else { return nil }
        if let portText {
            guard let port = UInt16(portText), port > 0 || allowsPortZero else { return nil }
            return SyncEndpoint(host: host, port: port)
        }
        guard let defaultPort else { return nil }
        return SyncEndpoint(host: host, port: defaultPort)
    }

    /// `HOST:PORT`, with brackets around an IPv6 host.
    public var description: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }
}
