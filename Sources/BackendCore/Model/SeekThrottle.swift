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

/// Rate limiting for seeks (pure logic, no GStreamer): at most one seek per `interval`, and
/// none while the one sent before has not landed (as GstPlay does). Requests arriving sooner are
/// coalesced and the latest wins; it runs when the seek in flight lands (``landed(now:)``) or
/// from a timer once the interval has passed. A seek that never lands holds later ones back for
/// at most `landingWait`.
///
/// Why wait for the landing: two flushing seeks a few milliseconds apart can leave a branch on
/// the first seek's segment (seen with `subparse` behind playbin's `suburi`: the subtitle
/// branch kept the first seek's segment, its cues came at the wrong times and the end of
/// stream seconds late).
///
/// Times are monotonic nanoseconds; the timer delay it asks for is in milliseconds
/// (GLib's unit), rounded up so the timer never fires early.
struct SeekThrottle: Sendable {
    /// What the caller must do after a request, a timer tick or a landing.
    enum Action: Equatable, Sendable {
        /// Issue this seek now.
        case execute(SeekRequest)
        /// Arm a one-shot timer for this many milliseconds (replacing any armed one).
        case armTimer(milliseconds: UInt32)
        /// Nothing to do: the request was stored and a timer is already armed.
        case coalesced
        /// Nothing is pending.
        case idle
    }

    /// Minimum spacing between executed seeks, in nanoseconds.
    let intervalNanoseconds: UInt64
    /// How long a request waits for the seek in flight to land before it is sent anyway.
    let landingWaitNanoseconds: UInt64
    private(set) var lastExecutedAt: UInt64?
    private(set) var pending: SeekRequest?
    private(set) var timerArmed = false

    init(intervalNanoseconds: UInt64, landingWaitNanoseconds: UInt64 = 2_000_000_000) {
        self.intervalNanoseconds = intervalNanoseconds
        self.landingWaitNanoseconds = landingWaitNanoseconds
    }

    /// A new request at monotonic time `now`; `inFlightSince` is when the seek not yet landed
    /// was sent, nil when none is in flight.
    mutating func request(_ seek: SeekRequest, now: UInt64, inFlightSince: UInt64? = nil) -> Action {
        pending = seek
        return decide(now: now, inFlightSince: inFlightSince)
    }

    /// The armed timer fired at `now`: run the pending seek, or re-arm for what is left to wait.
    mutating func timerFired(now: UInt64, inFlightSince: UInt64? = nil) -> Action {
        timerArmed = false
        return decide(now: now, inFlightSince: inFlightSince)
    }

    /// The seek in flight landed (or was given up: the end of the stream, a refused live seek)
    /// at `now`: a request held for it runs now, or after the rest of the interval. The caller
    /// replaces an armed timer when told to arm one, and may remove it after `execute`.
    mutating func landed(now: UInt64) -> Action {
        timerArmed = false
        return decide(now: now, inFlightSince: nil)
    }

    private mutating func decide(now: UInt64, inFlightSince: UInt64?) -> Action {
        guard let seek = pending else { return .idle }
        var wait: UInt64 = 0
        if let last = lastExecutedAt, now &- last < intervalNanoseconds { wait = intervalNanoseconds - (now &- last) }
        if let since = inFlightSince, now &- since < landingWaitNanoseconds {
            wait = max(wait, landingWaitNanoseconds - (now &- since))
        }
        if wait > 0 {
            if timerArmed { return .coalesced }
            timerArmed = true
            return .armTimer(milliseconds: Self.milliseconds(roundingUp: wait))
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
