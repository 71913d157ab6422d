import CGStreamer

/// Where a seek should go, before it is resolved against the position and duration.
public enum SeekTarget: Equatable, Sendable {
    /// A media time (clamped to the duration).
    case absolute(MediaTime)
    /// An offset from the current position (negative goes back).
    case relative(MediaTime)
    /// A fraction 0…1 of the duration (waits for the duration while it is unknown).
    case fraction(Double)
}

/// Seek bookkeeping for the current media: the throttle, a request kept until preroll (or
/// until the duration is known, for fractions), and the marker that ties ASYNC_DONE to a seek.
///
/// **Thread:** a value owned by the engine on the loop thread.
struct SeekState {
    /// At most one executed seek per interval; the latest request wins.
    var throttle: SeekThrottle
    /// A seek asked for before it could run: before preroll, or a fraction before the duration.
    var pending: (target: SeekTarget, mode: SeekMode)?
    /// When the seek now in flight was sent (monotonic ns), nil when none is.
    var issuedAt: UInt64?
    /// Where the seek in flight was sent: the landed position when the pipeline cannot answer a
    /// position query at ASYNC_DONE (seen when the seek overlaps an async PLAYING→PAUSED).
    var issuedPosition: MediaTime = .zero
    /// Seqnum of the bus marker posted right before the latest seek, and whether it came through.
    var markerSeqnum: guint32 = 0
    var markerSeen = false
    /// Live-window seeks handed to ``Engine/sendLiveSeek(_:to:position:)`` whose answer has not come back.
    var liveSendsInFlight = 0

    init(throttleInterval: Duration) {
        throttle = SeekThrottle(intervalNanoseconds: UInt64(max(0, throttleInterval.nanoseconds)))
    }

    /// Whether a seek is in flight.
    var inFlight: Bool { issuedAt != nil }

    /// Forgets pending and in-flight seeks.
    mutating func reset() {
        throttle.reset()
        pending = nil
        issuedAt = nil
        markerSeen = false
    }
}
