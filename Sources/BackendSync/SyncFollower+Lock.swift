import BackendCore

/// The follower's lock state: when it is locked, the events that mark the changes, and its
/// snapshot section. **Thread:** loop thread.
extension SyncFollower {
    /// Locked: connected, the clock answering, and the pipeline set up for a session of this
    /// leader (a later one may be being applied). ``SyncEvent/locked(leader:offset:rtt:)`` and
    /// ``SyncEvent/lost(leader:reason:)`` mark the changes.
    func updateLock() {
        let reason: String?
        if !connected {
            reason = connectionNote
        } else if clock == nil || session == nil {
            reason = "waiting for the leader's session"
        } else if !clockFresh {
            reason = lastAnswer == nil ? "waiting for the leader's clock" : "no answer from the leader's clock for \(settings.clockTimeout.components.seconds) s"
        } else if applied == nil {
            reason = "catching up with the leader"
        } else {
            reason = nil
        }
        let nowLocked = reason == nil
        if nowLocked && !locked {
            context.publish(SyncEvent.locked(leader: leader.description, offset: offset ?? 0, rtt: rtt ?? 0))
        } else if !nowLocked && locked {
            context.publish(SyncEvent.lost(leader: leader.description, reason: reason ?? ""))
        }
        locked = nowLocked
        updateSnapshot(reason: reason)
    }

    func updateSnapshot(reason: String? = "connecting") {
        var section = SyncSnapshot(role: "follower", leader: leader.description, locked: locked)
        section.offset = offset
        section.rtt = rtt
        section.reason = locked ? nil : reason
        section.session = session
        if let (clock, position, monotonic) = timelinePoint(clock: clock, timing: timing, segments: segments) {
            section.clockTime = clock
            section.positionAtClock = position
            section.monotonicTime = monotonic
        }
        context.updateSnapshot(section)
    }
}
