import Dispatch
import Synchronization

/// Delivery of ``PlayerEvent``s and the lock-protected snapshot getters answer from.
///
/// The engine calls ``publish(_:)`` on the loop thread; delivery to the delegate happens
/// outside the lock, on the loop thread or the configured queue. Streams get every event.
final class EventHub: Sendable {
    private struct Listeners {
        weak var delegate: (any PlayerDelegate)?
        weak var player: Player?
        var streams: [UInt64: AsyncStream<PlayerEvent>.Continuation] = [:]
        var nextStreamID: UInt64 = 0
        var closed = false
    }

    private let listeners = Mutex(Listeners())
    private let snapshotState = Mutex(PlayerSnapshot())
    private let statisticsState = Mutex(PlayerStatistics())
    private let delegateQueue: DispatchQueue?

    init(delegateQueue: DispatchQueue?) { self.delegateQueue = delegateQueue }

    func attach(player: Player) { listeners.withLock { $0.player = player } }

    var delegate: (any PlayerDelegate)? {
        get { listeners.withLock { $0.delegate } }
        set { listeners.withLock { $0.delegate = newValue } }
    }

    /// The current snapshot (any thread).
    var snapshot: PlayerSnapshot { snapshotState.withLock { $0 } }
    /// Mutates the snapshot (loop thread).
    func updateSnapshot(_ body: (inout PlayerSnapshot) -> Void) { snapshotState.withLock { body(&$0) } }

    /// The last statistics (any thread).
    var statistics: PlayerStatistics { statisticsState.withLock { $0 } }
    func storeStatistics(_ stats: PlayerStatistics) { statisticsState.withLock { $0 = stats } }

    /// A new stream of every event published from now on; ends at shutdown.
    func makeStream() -> AsyncStream<PlayerEvent> {
        let (stream, continuation) = AsyncStream<PlayerEvent>.makeStream(bufferingPolicy: .bufferingNewest(4096))
        let id: UInt64? = listeners.withLock { state in
            if state.closed { return nil }
            state.nextStreamID += 1
            state.streams[state.nextStreamID] = continuation
            return state.nextStreamID
        }
        guard let id else { continuation.finish(); return stream }
        continuation.onTermination = { [weak self] _ in
            _ = self?.listeners.withLock { $0.streams.removeValue(forKey: id) }
        }
        return stream
    }

    /// Hands `event` to the delegate and every stream (loop thread).
    func publish(_ event: PlayerEvent) {
        let (delegate, player, streams) = listeners.withLock { ($0.delegate, $0.player, Array($0.streams.values)) }
        for stream in streams { stream.yield(event) }
        guard let delegate, let player else { return }
        if let delegateQueue {
            delegateQueue.async { event.deliver(to: delegate, from: player) }
        } else {
            event.deliver(to: delegate, from: player)
        }
    }

    /// Ends every stream; later ``makeStream()`` calls return finished streams.
    func close() {
        let streams = listeners.withLock { state -> [AsyncStream<PlayerEvent>.Continuation] in
            state.closed = true
            defer { state.streams.removeAll() }
            return Array(state.streams.values)
        }
        for stream in streams { stream.finish() }
    }
}
