import BackendCore
import CGStreamer
import Glibc

/// The play queue as a `PlayerFeature`: the items (`PlayQueue`), the gapless feeder on
/// playbin's `about-to-finish`, the hand-overs not yet heard of at the sinks, and the queue's
/// section of the player's snapshot (``QueueSnapshot``). Its API is the `Player` extension in
/// `Player+Queue.swift`; its events are ``QueueEvent``s.
///
/// It moves the queue along at the core's extension points: a gapless hand-over (the feeder's
/// application message, intercepted, then `GST_MESSAGE_STREAM_START`), and, as the player's
/// end-of-item policy, the end of stream (``endOfStream()``: the next item) and errors
/// (``failed(with:)``: reported, then the next item).
///
/// **Thread:** every member runs on the player's loop thread (`PlayerFeature` calls and
/// `Player.withFeature(_:_:)` bodies); the `feeder` is shared with playbin's streaming
/// thread through its own lock. Not `Sendable`: `Player` holds it through a `LoopConfined` handle.
public final class QueueFeature: PlayerFeature, EndOfItemPolicy, MessageInterceptor {
    /// The items and where playback is in them.
    var queue = PlayQueue()
    /// True once the queue API was used: end of stream and errors then move through the queue.
    var isActive = false
    /// Items follow each other through `about-to-finish` (on by default).
    var gapless = true
    /// The end of an item moves on to the next (on by default). Off: every item ends with an end
    /// of stream and stays there (mpv's `keep-open=always`); only errors move on.
    var autoAdvance = true
    /// Where an item without a ``QueueItem/start`` of its own starts (nil: at the beginning).
    var itemStart: StartPosition?
    /// URIs handed to playbin at `about-to-finish` whose stream has not started at the sinks yet.
    var pending: [String] = []
    /// Items that failed in a row (to stop when every item fails).
    var consecutiveFailures = 0
    /// The `about-to-finish` hand-over.
    let feeder = GaplessFeeder()
    /// Items' media info found in the background (`QueueFeature+Discovery.swift`).
    let discovery = QueueDiscovery()
    /// The loaded item's description from the player (`QueueFeature+PlayerInfo.swift`).
    var playerInfo = PlayerItemInfo()
    /// The core, from ``attach(to:)`` on.
    private(set) var context: FeatureContext?

    /// A queue feature with an empty queue (`StandardFeatures` makes one per player).
    public init() {}

    // MARK: PlayerFeature

    /// Owns the end-of-item policy and intercepts its hand-over messages
    /// (`ExtensionOrder/playQueue`); the feeder answers playbin's `about-to-finish`
    /// (`FeatureContext.pipeline.handOverOnAboutToFinish`, disconnected by the core at teardown).
    public func attach(to context: FeatureContext) {
        self.context = context
        context.provideEndOfItemPolicy(self)
        context.interceptMessages(self, order: .playQueue)
        context.pipeline.handOverOnAboutToFinish(messageName: GaplessFeeder.messageName) { [feeder] videoStreams in
            feeder.next(videoStreams: videoStreams)
        }
    }

    /// The load prerolled: the current item is described from the player, and the background
    /// discovery of the others, held while it opened, goes on — both queued, after the core has
    /// published the load's media info.
    public func prerolled() {
        guard isActive, let context else { return }
        context.runOnLoop { [weak self] in
            guard let self, self.isActive else { return }
            self.describeCurrentItemFromPlayer()
            self.scheduleDiscovery()
        }
    }

    /// Forgets hand-overs in flight; stops discovering (releases the `GstDiscoverer`).
    public func teardown() {
        reset()
        discovery.isEnabled = false
        stopDiscovery()
    }

    /// The feeder's hand-over message (consumed): remember which URIs playbin now has queued.
    /// `GST_MESSAGE_STREAM_START` (passed on): a handed-over item may have reached the sinks.
    public func intercept(_ message: UnsafeMutablePointer<GstMessage>) -> MessageDisposition {
        if GaplessFeeder.isHandover(message) {
            pending += feeder.takeHandedOver()
            return .consumed
        }
        if CGStreamer_message_type(message) == GST_MESSAGE_STREAM_START { streamStarted() }
        return .proceed
    }

    /// End of stream with no hand-over: moves to the next item (`EndDisposition.advance`).
    /// `EndDisposition.proceed` when the queue is not in use, does not advance automatically,
    /// or has nothing next (the end of stream then stands). Items after the current one that
    /// the discoverer found unplayable are reported as skipped either way: at the end of the
    /// queue too, or a playlist ending in unplayable items would end without a word about them.
    public func endOfStream() -> EndDisposition {
        guard isActive, autoAdvance else { return .proceed }
        guard queue.peekNext(reason: .ended) != nil else {
            reportUnplayableRest()
            return .proceed
        }
        let ended = currentItemEnd()
        guard let next = queue.advance(reason: .ended) else { return .proceed }
        loadItem(next, reason: .ended, ended: ended)
        return .advance
    }

    /// An error while a queue plays: the failing item (the handed-over one if a hand-over is in
    /// flight) is reported (`FeatureContext.transport.fail(_:)`), then the one after it is loaded; stops
    /// once every item failed in a row. `EndDisposition.advance` either way (the queue reported
    /// the error itself); `EndDisposition.proceed` when the queue is not in use.
    public func failed(with error: PlayerError) -> EndDisposition {
        guard isActive, let context else { return .proceed }
        var reported = error
        let ended = currentItemEnd()
        if let failing = pending.first, let index = queue.advance(reason: .ended) {
            reported.uri = failing
            announce(index, reason: .ended, ended: ended)
        }
        let intent = context.transport.intent
        reset()
        context.transport.fail(reported)
        consecutiveFailures += 1
        guard consecutiveFailures < queue.count, let next = queue.advance(reason: .error) else {
            context.publish(QueueEvent.queueChanged(publishSnapshot()))
            return .advance
        }
        loadItem(next, reason: .error, ended: nil)
        if intent != .none { context.transport.intent = intent }
        return .advance
    }

    // MARK: Internals

    /// At the end of the queue: the items the queue would pass over on its way (found
    /// unplayable) are published as skipped, while the current item stays current.
    private func reportUnplayableRest() {
        var lookahead = queue
        lookahead.advance(reason: .ended)
        queue.skipped = lookahead.takeSkipped()          // the ones not published yet, then the rest
        publishSkipped()
    }

    /// `GST_MESSAGE_STREAM_START`: a handed-over item reached the sinks — it is the current item
    /// now (``FeatureTransport/continueWithHandedOverMedia(uri:stalePositionsFrom:)``).
    private func streamStarted() {
        guard isActive, let context else { return }
        guard !pending.isEmpty else { consecutiveFailures = 0; return }
        let uri = pending.removeFirst()
        consecutiveFailures = 0
        let ended = currentItemEnd()
        var index = queue.advance(reason: .ended)
        if index.map({ queue.items[$0].uri }) != uri, let found = queue.items.firstIndex(where: { $0.uri == uri }) {
            try? queue.jump(to: found)
            index = found
        }
        // Position queries may answer from the old item's segment for a moment.
        let stale = context.media.duration.map { $0 - MediaTime(seconds: 0.3) } ?? context.snapshot.position
        if let index { announce(index, reason: .ended, ended: ended) }
        context.transport.continueWithHandedOverMedia(uri: uri, stalePositionsFrom: stale)
        prepareHandover()
        context.publish(QueueEvent.queueChanged(publishSnapshot()))
    }

    /// The ``QueueEvent/itemEnded(index:id:position:)`` of the current item if it ended now
    /// (its duration when known, else its last position), nil when no item is current.
    func currentItemEnd() -> QueueEvent? {
        guard let context, let index = queue.currentIndex, let id = try? queue.item(at: index).id else { return nil }
        return .itemEnded(index: index, id: id, position: context.media.duration ?? context.snapshot.position ?? .zero)
    }

    /// Publishes that the item at `index` became current for `reason`, after the end of the one
    /// before when it `ended`. The snapshot's queue section names the new item as current from
    /// the `itemChanged` on (so its ``PlayerEventRecord/snapshot`` and the item's `uriLoaded`'s
    /// do); the `queueChanged` that announces the queue still follows.
    func announce(_ index: Int, reason: ItemChangeReason, ended: QueueEvent?) {
        guard let context, let id = try? queue.item(at: index).id else { return }
        if reason == .ended, let ended { context.publish(ended) }
        publishSnapshot()
        context.publish(QueueEvent.itemChanged(index: index, id: id, reason: reason))
    }

    /// Stores the current state in the player's snapshot (``FeatureContext/updateSnapshot(_:)``)
    /// and returns it; reports the items the queue passed over as unplayable and queues the
    /// discovery of what is still unknown (every change of the queue comes through here).
    @discardableResult
    func publishSnapshot() -> QueueSnapshot {
        publishSkipped()
        let value = queue.snapshot(gapless: gapless)
        context?.updateSnapshot(value)
        discovery.snapshotIsStale = false
        discovery.lastSnapshot = FeatureContext.now()
        if isActive { scheduleDiscovery() }
        return value
    }

    /// The queue as last stored in the snapshot.
    var published: QueueSnapshot { context?.snapshot.features[QueueSnapshot.self] ?? QueueSnapshot() }

    /// Forgets hand-overs in flight (a new load or a stop flushes them).
    func reset() {
        pending.removeAll()
        feeder.reset()
    }

    /// False for a local file that cannot be read (`access(R_OK)`) or is not a regular file (a
    /// FIFO would be opened blocking by `filesrc` on a streaming thread): such an item is not
    /// handed over gaplessly (an error in the middle of a hand-over would cut the playing item
    /// short); it is loaded after the end of stream (a FIFO through the core's `fd://`), on its own.
    static func mayOpen(_ uri: String) -> Bool {
        guard let path = FileURI.path(of: uri) else { return true }
        return FIFOSource.isRegularFile(path) && access(path, R_OK) == 0
    }
}

public extension ExtensionOrder {
    /// The play queue's rank among the message interceptors: first (its own hand-over messages).
    static let playQueue = ExtensionOrder(100)
}
