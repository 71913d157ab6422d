import CGStreamer

/// Time observers (loop thread): registration goes to the ``ObserverRegistry``, which asks
/// the engine for the position while the playhead moves and raises each call into the hub's
/// outbox, delivered with the events after the handler returns.
extension Engine {
    func addObserver(_ observer: TimeObserver) {
        preconditionOnLoop()
        observers.add(observer, on: loop, currentPosition: pipeline?.queryPosition(),
                      playingPosition: { [unowned self] in self.movingPosition(includingEnd: false) },
                      boundaryCheck: { [unowned self] in
                          if let position = self.movingPosition(includingEnd: true) { self.observers.playheadMoved(to: position) }
                      },
                      deliver: { [hub] observer, time in hub.publish(observer, at: time) })
    }

    func removeObserver(_ token: TimeObserverToken) {
        preconditionOnLoop()
        observers.remove(token)
    }

    /// The position while the playhead moves on its own (PLAYING, prerolled, no seek in
    /// flight); with `includingEnd`, also once ended (so a boundary at the very end fires).
    private func movingPosition(includingEnd: Bool) -> MediaTime? {
        let inputs = playback.inputs
        guard pipeline?.state == GST_STATE_PLAYING || (includingEnd && inputs.ended),
              inputs.prerolled, !inputs.seeking else { return nil }
        return pipeline?.queryPosition()
    }
}
