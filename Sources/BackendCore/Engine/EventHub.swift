import Dispatch
import Synchronization

/// The one way out of the loop thread, and the one lock getters read.
///
/// **Delivery.** The engine raises ``PlayerEvent``s (``publish(_:)``) and time-observer calls
/// (``publish(_:at:)``) on the loop thread; both wait in one outbox until the handler that
/// raised them has returned, then ``flush()`` (run by `MainLoopThread` after every dispatch)
/// hands them out in the order raised: events to every stream and to the delegate, observer
/// calls to their blocks — on the loop thread, or on the configured queue. A callback that
/// calls back into the player only queues work or reads this hub: the engine is never
/// re-entered mid-handler.
///
/// **Getters.** The ``PlayerSnapshot`` and the last ``PlayerStatistics`` live behind one
/// Mutex, so getters read them at one moment.
final class EventHub: Sendable {
    /// One open stream: of plain events (``Player/events``) or of records (``Player/records``).
    enum Stream {
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

    struct Listeners {
        weak var delegate: (any PlayerDelegate)?
        weak var player: Player?
        var streams: [UInt64: Stream] = [:]
        var nextStreamID: UInt64 = 0
        var closed = false
        /// Time observers registered and not removed: only their calls are made.
        var timeObservers: Set<TimeObserverToken> = []
        var lastObserverID: UInt64 = 0
    }

    /// What leaves the loop thread.
    fileprivate enum Delivery {
        case event(PlayerEventRecord)
        case time(TimeObserver, MediaTime)

        var isEvent: Bool { if case .event = self { return true } else { return false } }
    }

    fileprivate struct Outbox {
        var items: [Delivery] = []
        var flushing = false
        /// Set by ``startDelivery()``: nothing is delivered before the engine has started.
        var started = false
        /// A delegate or stream has listened once: from then on no event is held for later ones.
        var hadListener = false

        /// The next item to hand out: the first one, or — while events are held for a first
        /// listener — the first observer call (observers wait for nobody).
        mutating func next(eventsOpen: Bool) -> Delivery? {
            guard let index = eventsOpen ? items.indices.first : items.firstIndex(where: { !$0.isEvent }) else { return nil }
            return items.remove(at: index)
        }
    }

    /// A value a ``Player`` setter records in the snapshot before the loop thread applies it.
    enum Request: Hashable {
        case volume, muted, rate, pause
    }

    /// What the getters read, under one lock.
    struct Readings {
        /// Setter requests recorded and not yet applied by the engine, per kind: while one waits,
        /// the outcome of an earlier command does not overwrite the newer value recorded.
        var pendingRequests: [Request: Int] = [:]
        /// The ``watch(_:)`` streams, offered each snapshot getters can read.
        var watchers: [UInt64: SnapshotWatcher] = [:]
        var nextWatcherID: UInt64 = 0
        var watchersClosed = false

        /// Offers the snapshot getters read now to every watcher.
        mutating func offerToWatchers() {
            guard !watchers.isEmpty else { return }
            for id in Array(watchers.keys) { watchers[id]?.offer(snapshot) }
        }
        /// What getters read: the state as of the end of the last handler.
        var snapshot = PlayerSnapshot()
        /// Every change so far, also those of the handler running now (loop thread).
        var working = PlayerSnapshot()
        var statistics = PlayerStatistics()
    }

    /// Events kept while nobody listens yet (the oldest are dropped beyond this).
    private static let heldEventLimit = 4096

    /// Everything the hub holds, under its one lock: the listeners (any thread), the outbox
    /// (the loop thread, but `Sendable` needs it under the lock) and the readings (any thread).
    /// No call takes the lock twice, and no callback runs under it but a watcher's offer.
    struct State {
        /// ``Player/shutdown()`` has begun: commands are refused from now on (any thread).
        fileprivate var shutDown = false
        var listeners = Listeners()
        fileprivate var outbox = Outbox()
        /// The snapshot, statistics and watchers; touched only by this type (here and EventHub+Watchers.swift).
        var readings = Readings()
    }

    let state = Mutex(State())
    private let delegateQueue: DispatchQueue?

    init(delegateQueue: DispatchQueue?) { self.delegateQueue = delegateQueue }

    func attach(player: Player) { state.withLock { $0.listeners.player = player } }

    var delegate: (any PlayerDelegate)? {
        get { state.withLock { $0.listeners.delegate } }
        set { state.withLock { $0.listeners.delegate = newValue } }
    }

    /// Whether anyone receives events (a delegate or an open stream): periodic queries made
    /// only to report are skipped when nobody listens.
    var hasListeners: Bool { state.withLock { $0.listeners.delegate != nil || !$0.listeners.streams.isEmpty } }

    // MARK: Getters (one lock)

    /// The snapshot getters read (any thread): the state as of the end of the last handler, so a
    /// command is seen whole or not at all (a queue skip's new item together with its URI).
    var snapshot: PlayerSnapshot { state.withLock { $0.readings.snapshot } }
    /// The snapshot with every change made so far, those of the running handler included (loop
    /// thread: the engine and the features read their own writes here).
    var workingSnapshot: PlayerSnapshot { state.withLock { $0.readings.working } }
    /// Mutates the working snapshot (loop thread); getters see it once the handler has returned.
    func updateSnapshot(_ body: (inout PlayerSnapshot) -> Void) { state.withLock { body(&$0.readings.working) } }
    /// Records a value a setter asked for (any thread), in both snapshots at once, so every getter
    /// answers with it from now on; the engine's outcome replaces it (``settle(_:fromSetter:_:)``).
    /// False, with nothing recorded, once the player is shut down (no command runs then): the
    /// check and the record are one step.
    func recordRequest(_ request: Request, _ body: (inout PlayerSnapshot) -> Void) -> Bool {
        state.withLock { state in
            guard !state.shutDown else { return false }
            state.readings.pendingRequests[request, default: 0] += 1
            body(&state.readings.working)
            body(&state.readings.snapshot)
            state.readings.offerToWatchers()
            return true
        }
    }

    /// True once ``beginShutdown()`` ran: the player refuses commands (any thread).
    var isShutDown: Bool { state.withLock { $0.shutDown } }

    /// Marks the player shut down; true for the first call only (any thread).
    func beginShutdown() -> Bool {
        state.withLock { state in
            defer { state.shutDown = true }
            return !state.shutDown
        }
    }

    /// Stores the engine's outcome for a value of kind `request` (applied, clamped, refused; loop
    /// thread) — unless a newer setter request of that kind is still queued, whose recorded
    /// value stands until the engine reaches it. `fromSetter`: the outcome answers a
    /// ``recordRequest(_:_:)`` (a feature's change on the loop thread was never recorded).
    func settle(_ request: Request, fromSetter: Bool, _ body: (inout PlayerSnapshot) -> Void) {
        state.withLock { state in
            let pending = state.readings.pendingRequests[request, default: 0]
            let waiting = fromSetter ? max(pending - 1, 0) : pending
            state.readings.pendingRequests[request] = waiting
            if waiting == 0 { body(&state.readings.working) }
        }
    }
    /// Makes the working snapshot the one getters read (loop thread, after every handler: ``flush()``).
    private func commitSnapshot() {
        state.withLock { state in
            state.readings.snapshot = state.readings.working
            state.readings.offerToWatchers()
        }
    }

    /// The last statistics (any thread).
    var statistics: PlayerStatistics { state.withLock { $0.readings.statistics } }
    /// Stores fresh statistics (loop thread).
    func storeStatistics(_ stats: PlayerStatistics) { state.withLock { $0.readings.statistics = stats } }

    // MARK: Outbox (loop thread)

    /// Queues `event`, raised while `loadID` was current, for delivery after the current handler,
    /// with the snapshot as it stands now (``PlayerEventRecord/snapshot``).
    func publish(_ event: PlayerEvent, loadID: LoadID?) {
        let record = PlayerEventRecord(loadID: loadID, event: event, snapshot: workingSnapshot)
        state.withLock { box in
            box.outbox.items.append(.event(record))
            if box.outbox.items.count > Self.heldEventLimit, let oldest = box.outbox.items.firstIndex(where: \.isEvent) {
                box.outbox.items.remove(at: oldest)
            }
        }
    }

    /// Queues a call of `observer`'s block with `time`, in order with the events.
    func publish(_ observer: TimeObserver, at time: MediaTime) {
        state.withLock { $0.outbox.items.append(.time(observer, time)) }
    }

    /// Opens delivery with `first` ahead of everything raised so far (once, when the engine starts).
    func startDelivery(with first: PlayerEvent) {
        let record = PlayerEventRecord(loadID: nil, event: first, snapshot: workingSnapshot)
        state.withLock { box in
            box.outbox.items.insert(.event(record), at: 0)
            box.outbox.started = true
        }
    }

    /// Hands out what the outbox holds, in order. Whatever the callbacks cause to be raised
    /// meanwhile (a delegate that shuts the player down, say) is handed out by the same call,
    /// after it. Nothing goes out before ``startDelivery(with:)``. Until the player has had a
    /// first listener (a delegate or a stream) events are held, so that listener gets
    /// everything from ``PlayerEvent/initialized`` on; afterwards an event nobody listens to is
    /// dropped. Observer calls are never held.
    func flush() {
        commitSnapshot()
        let listening = state.withLock { $0.listeners.player != nil && ($0.listeners.delegate != nil || !$0.listeners.streams.isEmpty) }
        let eventsOpen = state.withLock { box -> Bool? in
            guard box.outbox.started, !box.outbox.flushing else { return nil }
            if listening { box.outbox.hadListener = true }
            box.outbox.flushing = true
            return box.outbox.hadListener
        }
        guard let eventsOpen else { return }
        while let item = state.withLock({ $0.outbox.next(eventsOpen: eventsOpen) }) {
            switch item {
            case .event(let event): deliver(event)
            case .time(let observer, let time): call(observer, at: time)
            }
        }
        state.withLock { $0.outbox.flushing = false }
    }

    private func deliver(_ event: PlayerEventRecord) {
        let (delegate, player, streams) = state.withLock { ($0.listeners.delegate, $0.listeners.player, Array($0.listeners.streams.values)) }
        for stream in streams { stream.yield(event) }
        guard let delegate, let player else { return }
        if let delegateQueue {
            delegateQueue.async { event.deliver(to: delegate, from: player) }
        } else {
            event.deliver(to: delegate, from: player)
        }
    }

    /// Calls the block on the observer's queue, or here (loop thread) when it has none; not
    /// once the observer is removed, even when the call was already queued.
    private func call(_ observer: TimeObserver, at time: MediaTime) {
        guard isActive(observer.token) else { return }
        if let queue = observer.queue {
            queue.async { [self] in if isActive(observer.token) { observer.block(time) } }
        } else {
            observer.block(time)
        }
    }

    /// Ends every stream and every observer; later ``makeStream()`` calls return finished streams.
    func close() {
        let streams = state.withLock { state -> [Stream] in
            state.listeners.closed = true
            state.listeners.timeObservers.removeAll()
            defer { state.listeners.streams.removeAll() }
            return Array(state.listeners.streams.values)
        }
        for stream in streams { stream.finish() }
        let watchers = state.withLock { state -> [SnapshotWatcher] in
            state.readings.watchersClosed = true
            defer { state.readings.watchers.removeAll() }
            return Array(state.readings.watchers.values)
        }
        for watcher in watchers { watcher.finish() }
    }
}
