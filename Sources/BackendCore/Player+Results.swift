import Dispatch

/// Commands with results, and events with identity.
///
/// **Naming:** each fire-and-forget command (``load(_:startAt:)``, ``seek(to:mode:)``…) keeps its
/// name and returns at once; its form that reports the outcome is the same name with `Async`
/// (``loadAsync(_:startAt:)``, ``seekAsync(to:mode:)``…) — a different name, because an `async`
/// overload of the same name would be chosen in every `async` context and break the callers of
/// the fire-and-forget form there. Values the loop thread must be asked for are `async`
/// overloads of the blocking getters (``refreshStatistics()``, ``currentPosition()``) or `async` functions (`snapshot(format:maxSize:)` of the thumbnails feature).
///
/// **Threads:** call from any task. Each command is queued onto the loop thread like the
/// fire-and-forget form (never inline) and no thread blocks: the caller is suspended on a
/// continuation that the loop thread resumes when the outcome is known. Every one resumes —
/// with an error when a new load, ``stop()``, a failure or ``shutdown()`` comes first.
extension Player {
    /// A new stream of every event with the ``LoadID`` of the load it belongs to, from now on,
    /// ending at ``shutdown()``; the same events, in the same order, as ``events``. Any thread.
    public var records: AsyncStream<PlayerEventRecord> {
        let stream = hub.makeRecordStream()
        _ = query { _ in } // a dispatch: hands the new listener what waited for one
        return stream
    }

    /// ``load(_:startAt:)``, then waits for the load to preroll (`ASYNC_DONE`, or the state change
    /// of a live source) and returns its ``LoadID`` — the one its events carry (``records``).
    /// - Throws: ``PlayerError``: the load's own error (a location that cannot become a URI, a
    ///   missing file, a missing decoder…), or, when it did not preroll first, that a new load
    ///   replaced it, that playback was stopped, or that the player is shut down.
    @discardableResult
    public func loadAsync(_ location: String, startAt: StartPosition? = nil) async throws(PlayerError) -> LoadID {
        let resolved = Result { () throws(PlayerError) -> String in try MediaLocation.uri(for: location) }
        return try await reply { engine, reply in
            engine.supersedeLoads()
            let previous = engine.results.currentLoad
            engine.load(resolved, original: location, start: startAt)
            engine.awaitLoad(reply, after: previous)
        }
    }

    /// ``seek(to:mode:)``, then waits for the seek to land and returns where it landed (the
    /// position of ``PlayerEvent/seekDone(_:)``; at the duration, the end of the stream's
    /// position). A seek coalesced by the throttle returns where the seek that replaced it landed;
    /// one made before preroll waits for it.
    /// - Throws: ``PlayerError``: ``PlayerError/Kind/invalidArgument`` when nothing is loaded or
    ///   the media cannot seek (live, or not seekable); otherwise when the seek could not be
    ///   issued, or a new load, a stop, a failure or the shutdown came first.
    @discardableResult
    public func seekAsync(to position: MediaTime, mode: SeekMode? = nil) async throws(PlayerError) -> MediaTime {
        try await seekAsync(.absolute(position), mode: mode)
    }

    /// ``seek(by:mode:)`` with the landed position, as ``seekAsync(to:mode:)``.
    @discardableResult
    public func seekAsync(by offset: MediaTime, mode: SeekMode? = nil) async throws(PlayerError) -> MediaTime {
        try await seekAsync(.relative(offset), mode: mode)
    }

    /// ``seek(toFraction:mode:)`` with the landed position, as ``seekAsync(to:mode:)``.
    @discardableResult
    public func seekAsync(toFraction fraction: Double, mode: SeekMode? = nil) async throws(PlayerError) -> MediaTime {
        try await seekAsync(.fraction(fraction), mode: mode)
    }

    private func seekAsync(_ target: SeekTarget, mode: SeekMode?) async throws(PlayerError) -> MediaTime {
        let mode = mode ?? configuration.defaultSeekMode
        let limit = configuration.seekLandingLimit
        return try await reply(within: limit, else: .seekNotLanded(within: limit)) { engine, reply in
            engine.requestSeek(target, mode: mode, reply: reply)
        }
    }

    /// Queues `body` on the loop thread with a reply for its result and suspends until the reply
    /// resolves (``PendingReply``: also when the command never runs). With `limit`, a reply that
    /// has not come by then resolves with `late` — from a timer off the loop thread, so it comes
    /// even when the loop thread never answers.
    func reply<Value: Sendable>(within limit: Duration? = nil, else late: PlayerError = .shutDown,
                                        _ body: @escaping @Sendable (Engine, PendingReply<Value>) -> Void) async throws(PlayerError) -> Value {
        let result = await withCheckedContinuation { (continuation: CheckedContinuation<Result<Value, PlayerError>, Never>) in
            let reply = PendingReply<Value> { continuation.resume(returning: $0) }
            if let limit {
                DispatchQueue.global().asyncAfter(deadline: .now() + .nanoseconds(Int(limit.nanoseconds))) { [weak reply] in
                    reply?.resolve(.failure(late))
                }
            }
            if !query({ engine in body(engine, reply) }) { reply.resolve(.failure(.shutDown)) }
        }
        return try result.get()
    }
}
