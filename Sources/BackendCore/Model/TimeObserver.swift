import Dispatch

/// Identifies a registered time observer; pass it to ``Player/removeTimeObserver(_:)``.
public struct TimeObserverToken: Hashable, Sendable {
    let id: UInt64
}

/// A time observer as registered (any thread); evaluated on the loop thread, where the
/// ``ObserverRegistry`` raises its calls into the ``EventHub``'s outbox like events: the block
/// runs after the handler that raised the call has returned, in order with the events.
struct TimeObserver: Sendable {
    enum Kind: Sendable {
        /// Every `interval` while playing, and once whenever a seek lands.
        case periodic(interval: Duration)
        /// When playback crosses one of these times (sorted).
        case boundary(times: [MediaTime])
    }

    let token: TimeObserverToken
    let kind: Kind
    let queue: DispatchQueue?
    /// Called by ``EventHub/flush()``: on `queue`, or on the loop thread when it is nil.
    let block: @Sendable (MediaTime) -> Void
}

/// The crossing rule for boundary observers (pure): a boundary fires when continuous playback
/// moves from `previous` to `current` past it, in the direction of playback. A jump made by a
/// seek never fires anything: the engine resets `previous` to the landed position instead.
enum BoundaryCrossing {
    /// Boundaries crossed going from `previous` to `current`.
    /// Forward play fires `previous < t ≤ current`; reverse play fires `current ≤ t < previous`.
    static func crossed(_ times: [MediaTime], from previous: MediaTime, to current: MediaTime) -> [MediaTime] {
        if current > previous { return times.filter { $0 > previous && $0 <= current } }
        if current < previous { return times.filter { $0 >= current && $0 < previous }.reversed() }
        return []
    }
}
