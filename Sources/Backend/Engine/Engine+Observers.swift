import CGStreamer

/// Time observers (loop thread): periodic ones get their own GLib timer; boundary ones are
/// checked on a 20 ms timer while playing, against the last position seen without a seek.
extension Engine {
    /// How often boundary observers look at the position, in milliseconds.
    static let boundaryCheckMilliseconds: UInt32 = 20

    func addObserver(_ observer: TimeObserver) {
        preconditionOnLoop()
        switch observer.kind {
        case .periodic(let interval):
            let ms = UInt32(clamping: max(1, interval.milliseconds))
            let timer = loop.addTimer(milliseconds: ms) { [unowned self] in
                if self.pipelineState == GST_STATE_PLAYING, self.inputs.prerolled, !self.inputs.seeking,
                   let playbin = self.playbin, let position = self.queryPosition(playbin) {
                    observer.fire(position)
                }
                return true
            }
            periodicObservers[observer.token] = (observer, timer)
        case .boundary:
            boundaryObservers[observer.token] = observer
            lastBoundaryPosition = playbin.flatMap(queryPosition)
            if boundaryTimer == nil {
                boundaryTimer = loop.addTimer(milliseconds: Engine.boundaryCheckMilliseconds) { [unowned self] in
                    self.checkBoundaries()
                    return true
                }
            }
        }
    }

    func removeObserver(_ token: TimeObserverToken) {
        preconditionOnLoop()
        if let (_, timer) = periodicObservers.removeValue(forKey: token) { timer.destroy() }
        boundaryObservers.removeValue(forKey: token)
        if boundaryObservers.isEmpty { boundaryTimer?.destroy(); boundaryTimer = nil }
    }

    func removeAllObservers() {
        for (_, entry) in periodicObservers { entry.1.destroy() }
        periodicObservers.removeAll()
        boundaryObservers.removeAll()
        boundaryTimer?.destroy()
        boundaryTimer = nil
    }

    /// A seek landed (or a new load started): the playhead jumped, nothing was crossed.
    func observersSawJump(to position: MediaTime?) {
        lastBoundaryPosition = position
        if let position {
            for (observer, _) in periodicObservers.values { observer.fire(position) }
        }
    }

    private func checkBoundaries() {
        guard pipelineState == GST_STATE_PLAYING || inputs.ended, inputs.prerolled, !inputs.seeking,
              let playbin, let current = queryPosition(playbin) else { return }
        defer { lastBoundaryPosition = current }
        guard let previous = lastBoundaryPosition else { return }
        for observer in boundaryObservers.values {
            guard case .boundary(let times) = observer.kind else { continue }
            for time in BoundaryCrossing.crossed(times, from: previous, to: current) { observer.fire(time) }
        }
    }
}
