import Dispatch
import Synchronization

/// Delivery of ``PlayerEvent``s and the lock-protected snapshot getters answer from.
///
/// The engine calls ``publish(_:)`` on the loop thread; events wait in an outbox until the
/// handler that raised them has returned, then ``flush()`` (run by ``MainLoopThread`` after
/// every dispatch) hands them, in order, to every stream and to the delegate (on the loop
/// thread or the configured queue). A delegate that calls back into the player only queues
/// work: the engine is never re-entered mid-handler.
final class EventHub: Sendable {
    /// One open stream: of plain events (``Player/events``) or of records (``Player/records``).
    private enum Stream {
        case events(AsyncStream<PlayerEvent>.Continuation)
        case records(AsyncStream<PlayerEventRecord>.Continuation)

        func yield(_ record: PlayerEventRecord) {
            switch self {
            case .events(let continuation): continuation.yield(record.event)
            case .records(let continuation): continuation.yield(record)
            }
        }

        func finish() {
            switch self {
            case .events(let continuation): continuation.finish()
            case .records(let continuation): continuation.finish()
            }
        }
    }

    private struct Listeners {
        weak var delegate: (any PlayerDelegate)?
        weak var player: Player?
        var streams: [UInt64: Stream] = [:]
        var nextStreamID: UInt64 = 0
        var closed = false
    }

    private struct Outbox {
        var events: [PlayerEventRecord] = []
        var flushing = false
        /// Set by ``startDelivery()``: nothing is delivered before the engine has started.
        var started = false
        /// A delegate or stream has listened once: from then on nothing is held for later ones.
        var hadListener = false
    }

    /// Events kept while nobody listens yet (the oldest are dropped beyond this).
    private static let heldEventLimit = 4096

    private let listeners = Mutex(Listeners())
    private let outbox = Mutex(Outbox())
    private let snapshotState = Mutex(PlayerSnapshot())
    private let statisticsState = Mutex(PlayerStatistics())
    private let delegateQueue: DispatchQueue?

    init(delegateQueue: DispatchQueue?) { self.delegateQueue = delegateQueue }

    func attach(player: Player) { listeners.withLock { $0.player = player } }

    var delegate: (any PlayerDelegate)? {
        get { listeners.withLock { $0.delegate } }
        set { listeners.withLock { $0.delegate = newValue } }
    }

    /// Whether anyone receives events (a delegate or an open stream): periodic queries made
    /// only to report are skipped when nobody listens.
    var hasListeners: Bool { listeners.withLock { $0.delegate != nil || !$0.streams.isEmpty } }

    /// The current snapshot (any thread).
    var snapshot: PlayerSnapshot { snapshotState.withLock { $0 } }
    /// Mutates the snapshot (loop thread).
    func updateSnapshot(_ body: (inout PlayerSnapshot) -> Void) { snapshotState.withLock { body(&$0) } }

    /// The last statistics (any thread).
    var statistics: PlayerStatistics { statisticsState.withLock { $0 } }
    func storeStatistics(_ stats: PlayerStatistics) { statisticsState.withLock { $0 = stats } }

    /// A new stream of every event published from now on; ends at shutdown.
    func makeStream() -> AsyncStream<PlayerEvent> { makeStream(Stream.events) }

    /// A new stream of every event with its load identity, from now on; ends at shutdown.
    func makeRecordStream() -> AsyncStream<PlayerEventRecord> { makeStream(Stream.records) }

    private func makeStream<Element>(_ wrap: (AsyncStream<Element>.Continuation) -> Stream) -> AsyncStream<Element> {
        let (stream, continuation) = AsyncStream<Element>.makeStream(bufferingPolicy: .bufferingNewest(4096))
        let id: UInt64? = listeners.withLock { state in
            if state.closed { return nil }
            state.nextStreamID += 1
            state.streams[state.nextStreamID] = wrap(continuation)
            return state.nextStreamID
        }
        guard let id else { continuation.finish(); return stream }
        continuation.onTermination = { [weak self] _ in
            _ = self?.listeners.withLock { $0.streams.removeValue(forKey: id) }
        }
        return stream
    }

    /// Queues `event`, raised while `loadID` was current, for delivery after the current handler
    /// (loop thread).
    func publish(_ event: PlayerEvent, loadID: LoadID?) {
        outbox.withLock { box in
            box.events.append(PlayerEventRecord(loadID: loadID, event: event))
            if box.events.count > Self.heldEventLimit { box.events.removeFirst(box.events.count - Self.heldEventLimit) }
        }
    }

    /// Opens delivery with `first` ahead of everything raised so far (loop thread, once, when
    /// the engine starts).
    func startDelivery(with first: PlayerEvent) {
        outbox.withLock { box in
            box.events.insert(PlayerEventRecord(loadID: nil, event: first), at: 0)
            box.started = true
        }
    }

    /// Delivers the queued events in order (loop thread). Events raised while delivering (a
    /// delegate that shuts the player down, say) are delivered by the same call, after them.
    /// Nothing is delivered before ``startDelivery()``. Until the player has had a first
    /// listener (a delegate or a stream) events are held, so that listener gets everything from
    /// ``PlayerEvent/initialized`` on; afterwards an event nobody listens to is dropped.
    func flush() {
        let listening = listeners.withLock { $0.player != nil && ($0.delegate != nil || !$0.streams.isEmpty) }
        let mayFlush = outbox.withLock { box -> Bool in
            guard box.started, !box.flushing else { return false }
            if listening { box.hadListener = true }
            guard box.hadListener else { return false }
            box.flushing = true
            return true
        }
        guard mayFlush else { return }
        while let event = outbox.withLock({ $0.events.isEmpty ? nil : $0.events.removeFirst() }) {
            deliver(event)
        }
        outbox.withLock { $0.flushing = false }
    }

    private func deliver(_ event: PlayerEventRecord) {
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
        let streams = listeners.withLock { state -> [Stream] in
            state.closed = true
            defer { state.streams.removeAll() }
            return Array(state.streams.values)
        }
        for stream in streams { stream.finish() }
    }
}
