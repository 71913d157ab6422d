import BackendCore

/// A queue edit or move requested through ``Player`` (validated again on the loop thread).
enum QueueCommand: Sendable {
    case replace([QueueItem], start: Int?)
    case append([QueueItem])
    case insert(QueueItem, at: Int)
    case playNow(QueueItem)
    case remove(Int)
    case move(from: Int, to: Int)
    case clear
    case jump(Int)
    case next
    case previous
    case loop(LoopMode)
    case shuffle(Bool, seed: UInt64?)
    case gapless(Bool)
    case autoAdvance(Bool)
    case itemStart(StartPosition?)
    case discovery(Bool)
}

/// Queue commands from ``Player`` (loop thread, through ``Player/withFeature(_:_:)``), item loads
/// and the gapless feeder's lookahead.
extension QueueFeature {
    /// Runs a queue command and announces the queue if it changed. Index errors (the queue
    /// changed since the caller checked) become a warning.
    func run(_ command: QueueCommand) {
        guard let context else { return }
        isActive = true
        let before = queue.currentIndex, announced = published
        // A skip only when an item was current: the first item of a queue is not "skipped" to.
        let skip: ItemChangeReason? = before == nil ? nil : .skipped
        do {
            switch command {
            case .replace(let items, let start):
                if !queue.isEmpty { context.publish(QueueEvent.itemsRemoved(index: 0, count: queue.count)) }
                queue = PlayQueue(items: items, loop: queue.loop, shuffled: queue.isShuffled, seed: queue.seed,
                                  firstID: queue.nextID)
                publishInserted(at: 0, count: queue.count)
                consecutiveFailures = 0
                if let start { try queue.jump(to: start) } else { queue.advance(reason: .skipped) }
                if let index = queue.currentIndex { return loadItem(index, reason: skip) }
                context.transport.stop()
            case .append(let items):
                let first = queue.count
                for item in items { queue.append(item) }
                publishInserted(at: first, count: items.count)
            case .insert(let item, let index):
                try queue.insert(item, at: index)
                publishInserted(at: index, count: 1)
            case .playNow(let item):
                let index = queue.currentIndex.map { $0 + 1 } ?? queue.count
                try queue.insert(item, at: index)
                publishInserted(at: index, count: 1)
                try queue.jump(to: index)
                return loadItem(index, reason: skip)
            case .remove(let index):
                let removed = try queue.remove(at: index)
                context.publish(QueueEvent.itemsRemoved(index: index, count: 1))
                if removed.currentRemoved {
                    if let next = queue.currentIndex { return loadItem(next, reason: skip) }
                    context.transport.stop()
                }
            case .move(let from, let to):
                try queue.move(from: from, to: to)
                if from != to, let id = try queue.item(at: to).id { context.publish(QueueEvent.itemMoved(from: from, to: to, id: id)) }
            case .clear:
                if !queue.isEmpty { context.publish(QueueEvent.itemsRemoved(index: 0, count: queue.count)) }
                queue.clear()
                context.transport.stop()
            case .jump(let index):
                try queue.jump(to: index)
                return loadItem(index, reason: skip)
            case .next, .previous:
                let target = command.isNext ? queue.advance(reason: .skipped) : queue.previous()
                if let target { return loadItem(target, reason: skip) }
                if command.isNext, before != nil { context.transport.stop() }
            case .loop(let mode): queue.loop = mode
            case .shuffle(let on, let seed):
                if let seed, on {
                    queue = PlayQueue(reseeding: queue, seed: seed)
                }
                queue.setShuffled(on)
            case .gapless(let on): gapless = on
            case .autoAdvance(let on): autoAdvance = on
            case .itemStart(let start): itemStart = start
            case .discovery(let on):
                discovery.isEnabled = on
                if !on { stopDiscovery() }
            }
        } catch {
            context.publish(.warning(PlayerError(kind: .invalidArgument, message: error.description)))
        }
        prepareHandover()
        let after = publishSnapshot()
        if after != announced { context.publish(QueueEvent.queueChanged(after)) }   // settings that change nothing stay quiet
    }

    /// Loads the item at `index` (a fresh load: READY, uri, PAUSED), keeping the user's play/pause intent.
    /// `reason` nil: no item was current before (the queue's start), so no `itemChanged` is
    /// published; the `queueChanged` naming the new current item then comes before its
    /// `uriLoaded` instead of after it, so the index still arrives first. `ended`: the end of the
    /// item current before, published first when `reason` is ``ItemChangeReason/ended``.
    func loadItem(_ index: Int, reason: ItemChangeReason?, ended: QueueEvent? = nil) {
        guard let context, let item = try? queue.item(at: index) else { return }
        let wasLoaded = context.progress.isActive
        let intent = context.transport.intent
        reset()
        let announced: QueueSnapshot? = reason == nil ? publishSnapshot() : nil
        if let reason { announce(index, reason: reason, ended: ended) }
        if let announced { context.publish(QueueEvent.queueChanged(announced)) }
        context.transport.load(item.uri, start: item.start.map { .time($0) } ?? itemStart)
        if item.start != nil { try? queue.setStart(nil, at: index) }
        if wasLoaded && intent != .none { context.transport.intent = intent }
        prepareHandover()
        let snapshot = publishSnapshot()
        if snapshot != announced { context.publish(QueueEvent.queueChanged(snapshot)) }
    }

    /// Tells the feeder what comes next (two items ahead), or nothing when gapless is off, items
    /// do not follow each other automatically, the rate is negative, the media is live, or the
    /// next item needs a start position. The lookahead stops at an item the discoverer found to
    /// have video: it is loaded afresh after the end of stream, so it gets its own preroll and
    /// media info (handed over after audio shown with a visualiser, playbin stalled or failed
    /// `not-linked`).
    func prepareHandover() {
        guard let context, isActive, gapless, autoAdvance, itemStart == nil, context.media.rate > 0, !context.media.isLive else {
            return feeder.prepare(upcoming: [])
        }
        let queued = queue, inFlight = pending
        // Under the feeder's lock: a hand-over made on the streaming thread whose bus message is
        // still on its way counts as handed over too, or its URI would be offered twice.
        feeder.prepare { handedOverNotTaken in
            var lookahead = queued
            for _ in 0..<(inFlight.count + handedOverNotTaken.count) { lookahead.advance(reason: .ended) }
            var uris: [String] = []
            while uris.count < 2, let index = lookahead.advance(reason: .ended), let item = try? lookahead.item(at: index),
                  item.start == nil, item.info?.hasVideo != true, QueueFeature.mayOpen(item.uri) {
                uris.append(item.uri)
            }
            return uris
        }
    }
}

extension QueueFeature {
    /// Publishes ``QueueEvent/itemsInserted(index:items:)`` for the `count` items from `index` on
    /// (with their ids), when there are any.
    func publishInserted(at index: Int, count: Int) {
        guard count > 0, let context else { return }
        let items = queue.items[index..<(index + count)]
        context.publish(QueueEvent.itemsInserted(index: index, items: Array(items)))
    }
}

extension QueueCommand {
    var isNext: Bool { if case .next = self { return true } else { return false } }
}
