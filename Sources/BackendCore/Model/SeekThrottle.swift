/// How a seek positions the playhead.
public enum SeekMode: String, Sendable, Hashable, Codable {
    /// Exactly at the requested time (`GST_SEEK_FLAG_ACCURATE`): slower, exact.
    case accurate
    /// On the nearest key frame (`GST_SEEK_FLAG_KEY_UNIT | GST_SEEK_FLAG_SNAP_NEAREST`): fast, for scrubbing.
    case keyUnit
}

/// One seek the user asked for.
struct SeekRequest: Equatable, Sendable {
    var position: MediaTime
    var mode: SeekMode
}

/// Rate limiting for seeks (pure logic, no GStreamer): at most one seek per `interval`;
/// requests arriving sooner are coalesced and the latest wins, executed by a timer once
/// the interval since the last executed seek has passed.
///
/// Times are monotonic nanoseconds; the timer delay it asks for is in milliseconds
/// (GLib's unit), rounded up so the timer never fires early.
struct SeekThrottle: Sendable {
    /// What the caller must do after a request or a timer tick.
    enum Action: Equatable, Sendable {
        /// Issue this seek now.
        case execute(SeekRequest)
        /// Arm a one-shot timer for this many milliseconds (no timer is armed yet).
        case armTimer(milliseconds: UInt32)
        /// Nothing to do: the request was stored and a timer is already armed.
        case coalesced
        /// The timer fired but there is nothing pending.
        case idle
    }

    /// Minimum spacing between executed seeks, in nanoseconds.
    let intervalNanoseconds: UInt64
    private(set) var lastExecutedAt: UInt64?
    private(set) var pending: SeekRequest?
    private(set) var timerArmed = false

    init(intervalNanoseconds: UInt64) { self.intervalNanoseconds = intervalNanoseconds }

    /// A new request at monotonic time `now`.
    mutating func request(_ seek: SeekRequest, now: UInt64) -> Action {
        if let last = lastExecutedAt, now &- last < intervalNanoseconds {
            pending = seek
            if timerArmed { return .coalesced }
            timerArmed = true
            return .armTimer(milliseconds: Self.milliseconds(roundingUp: intervalNanoseconds - (now &- last)))
        }
        pending = nil
        lastExecutedAt = now
        return .execute(seek)
    }

    /// The armed timer fired at `now`: run the pending seek, or re-arm if it fired early.
    mutating func timerFired(now: UInt64) -> Action {
        timerArmed = false
        guard let seek = pending else { return .idle }
        if let last = lastExecutedAt, now &- last < intervalNanoseconds {
            timerArmed = true
            return .armTimer(milliseconds: Self.milliseconds(roundingUp: intervalNanoseconds - (now &- last)))
        }
        pending = nil
        lastExecutedAt = now
        return .execute(seek)
    }

    /// A seek was executed outside the throttle (a rate change): later requests keep their
    /// distance from it. A pending request stays pending.
    mutating func noteExecuted(now: UInt64) {
        lastExecutedAt = now
    }

    /// Forget everything (new URI, stop). The caller removes any armed timer.
    mutating func reset() {
        lastExecutedAt = nil
        pending = nil
        timerArmed = false
    }

    static func milliseconds(roundingUp ns: UInt64) -> UInt32 {
        UInt32(clamping: max(1, (ns + 999_999) / 1_000_000))
    }
}
