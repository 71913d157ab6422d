/// The getters (any thread). The plain ones read the snapshot (one lock, shared with the
/// statistics and the features' sections) without waiting; `currentPosition()` and
/// `refreshStatistics()` ask the loop thread — blocking, or `async` — except on the loop
/// thread itself, where they answer from the snapshot (see ``Player``: nothing re-enters).
extension Player {
    /// A consistent copy of everything the getters know.
    public var snapshot: PlayerSnapshot { hub.snapshot }
    /// The explicit player state.
    public var state: PlayerState { hub.snapshot.state }
    /// The last known position.
    public var position: MediaTime? { hub.snapshot.position }
    /// The duration, when known.
    public var duration: MediaTime? { hub.snapshot.duration }
    /// The video display size, if any.
    public var mediaSize: VideoSize? { hub.snapshot.mediaSize }
    /// The latest statistics (refreshed on every statistics tick and on ``refreshStatistics()-2mpxy``),
    /// read under the snapshot's lock.
    public var statistics: PlayerStatistics { hub.statistics }

    /// The position right now, from a pipeline query (`gst_element_query_position`) on the
    /// loop thread (while a route plays the media, the route's position moved on since its last
    /// report) — fresher than ``position``, which is the last tick. Blocks the calling
    /// thread until the loop has run the commands issued before it; on the loop thread itself
    /// it cannot wait and returns ``position``. Nil when nothing is loaded or the player is shut down.
    public func currentPosition() -> MediaTime? {
        // Written on the loop thread while this thread waits (`queryAndWait`: the semaphore
        // orders the write before the read), so it needs no lock.
        var position: MediaTime?
        let ran = queryAndWait { engine in position = Player.livePosition(engine) }
        if ran { return position }
        return isOnLoopThread ? hub.snapshot.position : nil
    }

    /// ``currentPosition()`` without blocking a thread: suspends until the loop has answered
    /// (queued after the commands issued before it). Nil when nothing is loaded or the player is shut down.
    public func currentPosition() async -> MediaTime? {
        await answer { Player.livePosition($0) }
    }

    /// Where playback is going to be: the target of a seek that has not landed yet — asked for
    /// before the preroll (a load's `startAt`, as a resumed item starts) or in flight — else
    /// ``currentPosition()``. For a position to keep: quitting before a resumed start's seek
    /// landed keeps that start, not the 0 the pipeline answers until then (mpv saves its seek
    /// target likewise). Suspends until the loop has answered; nil when nothing is loaded or the
    /// player is shut down. **Thread:** any; answered on the loop thread.
    public func settledPosition() async -> MediaTime? {
        await answer { Player.landingPosition($0) ?? Player.livePosition($0) }
    }

    /// Suspends until the loop thread has run `read` (queued after the commands issued before
    /// it) and returns its answer; nil once the player is shut down.
    private func answer<Value: Sendable>(_ read: @escaping @Sendable (Engine) -> Value?) async -> Value? {
        await withCheckedContinuation { continuation in
            let queued = query { engine in continuation.resume(returning: read(engine)) }
            if !queued { continuation.resume(returning: nil) }
        }
    }

    /// The target of the seek not landed yet (pending with an absolute target, or in flight), if any.
    private static func landingPosition(_ engine: Engine) -> MediaTime? {
        guard engine.routing == nil else { return nil }
        if case .absolute(let time)? = engine.seeks.pending?.target { return time }
        return engine.seeks.inFlight ? engine.seeks.issuedPosition : nil
    }

    /// Collects fresh statistics on the loop thread and returns them. Blocks the calling thread
    /// until the loop has run (do not call while holding a lock a callback needs); on the loop
    /// thread itself it cannot wait and returns ``statistics``; after shutdown, the last ones.
    public func refreshStatistics() -> PlayerStatistics {
        _ = queryAndWait { $0.collectStatistics(publish: false) }
        return hub.statistics
    }

    /// ``refreshStatistics()`` without blocking a thread: suspends until the loop has collected
    /// them (queued after the commands issued before it). After shutdown, the last ones.
    public func refreshStatistics() async -> PlayerStatistics {
        await withCheckedContinuation { continuation in
            let queued = query { [hub] engine in
                engine.collectStatistics(publish: false)
                continuation.resume(returning: hub.statistics)
            }
            if !queued { continuation.resume(returning: hub.statistics) }
        }
    }

    /// The pipeline's position once prerolled; while a route plays the media, the route's (the
    /// pipeline is held where it began). Loop thread.
    private static func livePosition(_ engine: Engine) -> MediaTime? {
        if engine.routing != nil { return engine.routePosition() }
        return engine.playback.inputs.prerolled ? engine.pipeline?.queryPosition() : nil
    }
}
