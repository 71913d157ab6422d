import GLibSupport
/// Time observers (periodic and boundary) and the timers that drive them.
///
/// Periodic observers get their own GLib timer; boundary observers are checked on one 20 ms
/// timer while playing, against the last position seen without a seek. A call is never made
/// here: it is raised into the hub's outbox (`deliver`) and made after the handler returns,
/// like an event. **Thread:** loop thread only.
final class ObserverRegistry {
    /// How often boundary observers look at the position.
    static let boundaryCheckInterval: Duration = .milliseconds(20)

    private var periodic: [TimeObserverToken: (observer: TimeObserver, timer: TimerSource)] = [:]
    private var boundary: [TimeObserverToken: TimeObserver] = [:]
    private var boundaryTimer: TimerSource?
    /// The position boundary crossings are measured from; reset when the playhead jumps.
    private var lastPosition: MediaTime?
    /// Raises one call of an observer (the ``EventHub`` outbox); set by ``add(_:on:currentPosition:playingPosition:boundaryCheck:deliver:)``.
    private var deliver: (TimeObserver, MediaTime) -> Void = { _, _ in }

    /// Adds `observer`. `playingPosition` answers the current position while playing (nil when
    /// the playhead is not moving); `boundaryCheck` runs on the shared boundary timer; `deliver`
    /// raises a call (the hub's outbox, the same for every observer).
    func add(_ observer: TimeObserver, on loop: MainLoopThread, currentPosition: MediaTime?,
             playingPosition: @escaping () -> MediaTime?, boundaryCheck: @escaping () -> Void,
             deliver: @escaping (TimeObserver, MediaTime) -> Void) {
        self.deliver = deliver
        switch observer.kind {
        case .periodic(let interval):
            let timer = loop.addTimer(every: interval) {
                if let position = playingPosition() { deliver(observer, position) }
                return true
            }
            periodic[observer.token] = (observer, timer)
        case .boundary:
            boundary[observer.token] = observer
            lastPosition = currentPosition
            if boundaryTimer == nil {
                boundaryTimer = loop.addTimer(every: Self.boundaryCheckInterval) { boundaryCheck(); return true }
            }
        }
    }

    /// Removes one observer; its block is not called afterwards.
    func remove(_ token: TimeObserverToken) {
        periodic.removeValue(forKey: token)?.timer.destroy()
        boundary.removeValue(forKey: token)
        if boundary.isEmpty { boundaryTimer?.destroy(); boundaryTimer = nil }
    }

    /// Removes every observer and timer. Idempotent.
    func removeAll() {
        for entry in periodic.values { entry.timer.destroy() }
        periodic.removeAll()
        boundary.removeAll()
        boundaryTimer?.destroy()
        boundaryTimer = nil
        lastPosition = nil
    }

    /// The playhead jumped (a seek landed, new media): nothing was crossed; periodic
    /// observers hear the landed position once.
    func playheadJumped(to position: MediaTime?) {
        lastPosition = position
        guard let position else { return }
        for entry in periodic.values { deliver(entry.observer, position) }
    }

    /// Continuous playback reached `current`: fires the boundaries crossed since the last check.
    func playheadMoved(to current: MediaTime) {
        defer { lastPosition = current }
        guard let previous = lastPosition else { return }
        for observer in boundary.values {
            guard case .boundary(let times) = observer.kind else { continue }
            for time in BoundaryCrossing.crossed(times, from: previous, to: current) { deliver(observer, time) }
        }
    }
}
