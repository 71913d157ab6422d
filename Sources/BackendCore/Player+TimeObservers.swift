import Dispatch

/// Time observers (any thread), AVPlayer's periodic and boundary observers. Their calls are
/// raised on the loop thread into the ``EventHub``'s outbox and leave it like events: in the
/// order raised, after the handler that raised them has returned.
extension Player {
    /// Calls `block` every `interval` of wall time while playing (with the position), and once
    /// whenever a seek lands. The block runs on `queue`, or on the loop thread when nil, after
    /// the handler that raised the call has returned, in order with the events (like a
    /// delegate call). Like AVPlayer's `addPeriodicTimeObserver(forInterval:queue:using:)`.
    @discardableResult
    public func addPeriodicTimeObserver(interval: Duration, queue: DispatchQueue? = nil,
                                        _ block: @escaping @Sendable (MediaTime) -> Void) -> TimeObserverToken {
        addObserver(TimeObserver(token: hub.newObserverToken(), kind: .periodic(interval: interval), queue: queue, block: block))
    }

    /// Calls `block` with the boundary time each time continuous playback crosses one of
    /// `times` (in the direction of playback; checked every 20 ms). A seek that jumps over a
    /// boundary does not fire it; playing through it again after seeking back does.
    /// The block is delivered like the periodic one's (``addPeriodicTimeObserver(interval:queue:_:)``).
    /// Like AVPlayer's `addBoundaryTimeObserver(forTimes:queue:using:)`.
    @discardableResult
    public func addBoundaryTimeObserver(times: [MediaTime], queue: DispatchQueue? = nil,
                                        _ block: @escaping @Sendable (MediaTime) -> Void) -> TimeObserverToken {
        addObserver(TimeObserver(token: hub.newObserverToken(), kind: .boundary(times: times.sorted()), queue: queue, block: block))
    }

    /// Removes an observer: once this call returns its block is not started again, from any
    /// thread (a call already running on its queue may finish). Its timers go on the loop thread.
    public func removeTimeObserver(_ token: TimeObserverToken) {
        hub.deactivate(token)
        command { $0.removeObserver(token) }
    }

    private func addObserver(_ observer: TimeObserver) -> TimeObserverToken {
        command { $0.addObserver(observer) }
        return observer.token
    }
}
