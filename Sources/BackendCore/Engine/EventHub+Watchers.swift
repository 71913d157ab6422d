/// Watchers: a value of the snapshot delivered now and at each change (``Player/observe(_:)``).
extension EventHub {
    /// A new stream of `read`'s value: the one now, then each change, coalesced (``Player/observe(_:)``).
    /// Offered under the hub's lock, so values go out in the order the snapshot took them.
    func watch<Value: Equatable & Sendable>(_ read: @escaping @Sendable (PlayerSnapshot) -> Value) -> AsyncStream<Value> {
        let (stream, continuation) = AsyncStream<Value>.makeStream(bufferingPolicy: .bufferingNewest(1))
        let watcher = SnapshotWatcher(offer: { now, before in
            let value = read(now)
            if let before, read(before) == value { return }
            continuation.yield(value)
        }, finish: { continuation.finish() })
        let id: UInt64? = state.withLock { state in
            guard !state.readings.watchersClosed else { return nil }
            state.readings.nextWatcherID += 1
            var added = watcher
            added.offer(state.readings.snapshot)
            state.readings.watchers[state.readings.nextWatcherID] = added
            return state.readings.nextWatcherID
        }
        guard let id else { continuation.finish(); return stream }
        continuation.onTermination = { [weak self] _ in
            _ = self?.state.withLock { $0.readings.watchers.removeValue(forKey: id) }
        }
        return stream
    }
}
