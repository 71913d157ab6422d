import Synchronization

/// The hub's listeners: event streams and time observers' tokens (any thread, under the hub's lock).
extension EventHub {
    /// A new stream of every event published from now on; ends at shutdown.
    func makeStream() -> AsyncStream<PlayerEvent> { makeStream(Stream.events) }

    /// A new stream of every event with its load identity, from now on; ends at shutdown.
    func makeRecordStream() -> AsyncStream<PlayerEventRecord> { makeStream(Stream.records) }

    /// A new stream whose continuation `wrap` files under the listeners (finished at once when
    /// the hub has closed).
    private func makeStream<Element>(_ wrap: (AsyncStream<Element>.Continuation) -> Stream) -> AsyncStream<Element> {
        let (stream, continuation) = AsyncStream<Element>.makeStream(bufferingPolicy: .bufferingNewest(4096))
        let id: UInt64? = state.withLock { state in
            if state.listeners.closed { return nil }
            state.listeners.nextStreamID += 1
            state.listeners.streams[state.listeners.nextStreamID] = wrap(continuation)
            return state.listeners.nextStreamID
        }
        guard let id else { continuation.finish(); return stream }
        continuation.onTermination = { [weak self] _ in
            _ = self?.state.withLock { $0.listeners.streams.removeValue(forKey: id) }
        }
        return stream
    }

    /// A token for a new time observer, whose calls are let through from now on (any thread).
    func newObserverToken() -> TimeObserverToken {
        state.withLock { state in
            state.listeners.lastObserverID += 1
            let token = TimeObserverToken(id: state.listeners.lastObserverID)
            state.listeners.timeObservers.insert(token)
            return token
        }
    }

    /// Stops the observer `token`'s calls at once (any thread): a call still in the outbox, or
    /// queued on the observer's queue but not started, is dropped.
    func deactivate(_ token: TimeObserverToken) { _ = state.withLock { $0.listeners.timeObservers.remove(token) } }

    /// Whether the observer `token` is still let through (any thread).
    func isActive(_ token: TimeObserverToken) -> Bool { state.withLock { $0.listeners.timeObservers.contains(token) } }
}
