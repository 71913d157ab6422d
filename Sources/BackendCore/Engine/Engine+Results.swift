/// Command results (loop thread): load identities, and the replies of ``Player/loadAsync(_:startAt:)``
/// and ``Player/seekAsync(to:mode:)`` resolved where the engine learns the outcome.
extension Engine {
    /// A new media begins (a load, or a gapless hand-over): the events from here on carry a new
    /// ``LoadID``.
    func beginLoadIdentity() {
        results.beginLoad()
        hub.updateSnapshot { [id = results.currentLoad] in $0.loadID = id }
    }

    /// Waits for the load just made to preroll. `previous` is the load that was current before it:
    /// a load that began (a new identity) and already failed (a location that is no URI, say)
    /// fails at once; one a feature deferred (a cached copy revalidated first) has not begun yet
    /// and is waited for. Fails at once without `playbin` or once the engine is torn down.
    func awaitLoad(_ reply: PendingReply<LoadID>, after previous: LoadID?) {
        guard !results.closed else { return reply.resolve(.failure(.shutDown)) }
        let began = results.currentLoad != previous
        if pipeline?.object == nil || (began && playback.inputs.failed) {
            return reply.resolve(.failure(hub.workingSnapshot.lastError ?? PlayerError(kind: .invalidInput, message: "nothing could be loaded")))
        }
        results.loads.append(reply)
    }

    /// The current load prerolled: its replies get its identity.
    func resolveLoads() {
        guard let id = results.currentLoad else { return }
        for reply in results.takeLoads() { reply.resolve(.success(id)) }
    }

    /// Keeps a seek's reply until the request it belongs to is issued (``seekIssued(_:)``).
    func queueSeekReply(_ reply: PendingReply<MediaTime>?) {
        guard let reply else { return }
        guard !results.closed else { return reply.resolve(.failure(.shutDown)) }
        results.queuedSeeks.append(reply)
    }

    /// The throttle issued the latest request (`error` nil) or could not (`error`): the queued
    /// replies now wait for its landing, or fail.
    func seekIssued(_ error: PlayerError?) {
        let queued = results.queuedSeeks
        results.queuedSeeks = []
        if let error {
            for reply in queued { reply.resolve(.failure(error)) }
        } else {
            results.issuedSeeks += queued
        }
    }

    /// The seek in flight landed at `position` (ASYNC_DONE), or the stream ended there.
    func resolveIssuedSeeks(at position: MediaTime) {
        let issued = results.issuedSeeks
        results.issuedSeeks = []
        for reply in issued { reply.resolve(.success(position)) }
    }

    /// Fails the seek replies (a new load), and the load replies too unless `keepingLoads`.
    func failPendingResults(_ error: PlayerError, keepingLoads: Bool = false) {
        for reply in results.takeSeeks() { reply.resolve(.failure(error)) }
        guard !keepingLoads else { return }
        for reply in results.takeLoads() { reply.resolve(.failure(error)) }
    }

    /// Teardown: every reply fails, and later ones fail at once.
    func closeResults() {
        results.closed = true
        failPendingResults(.shutDown)
    }
}

extension Engine {
    /// A user's new load replaces the one whose replies still wait: they fail.
    func supersedeLoads() {
        for reply in results.takeLoads() { reply.resolve(.failure(.replacedByLoad)) }
    }
}
