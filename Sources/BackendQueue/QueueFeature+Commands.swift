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
}

/// Queue commands from ``Player`` (loop thread, through ``Player/withFeature(_:_:)``), item loads
/// and the gapless feeder's lookahead.
extension QueueFeature {
    /// Runs a queue command and announces the queue if it changed. Index errors (the queue
    /// changed since the caller checked) become a warning.
    func run(_ command: QueueCommand) {
        guard let context else { return }
        let driver = self
        driver.isActive = true
        let before = driver.queue.currentIndex, published = driver.published
        // A skip only when an item was current: the first item of a queue is not "skipped" to (issue 20, item 12).
        let skip: ItemChangeReason? = before == nil ? nil : .skipped
        do {
            switch command {
            case .replace(let items, let start):
                driver.queue = PlayQueue(items: items, loop: driver.queue.loop, shuffled: driver.queue.isShuffled, seed: driver.queue.seed,
                                         firstID: driver.queue.nextID)
                driver.consecutiveFailures = 0
                if let start { try driver.queue.jump(to: start) } else { driver.queue.advance(reason: .skipped) }
                if let index = driver.queue.currentIndex { return loadItem(index, reason: skip) }
                context.stop()
            case .append(let items): for item in items { driver.queue.append(item) }
            case .insert(let item, let index): try driver.queue.insert(item, at: index)
            case .playNow(let item):
                let index = driver.queue.currentIndex.map { $0 + 1 } ?? driver.queue.count
                try driver.queue.insert(item, at: index)
                try driver.queue.jump(to: index)
                return loadItem(index, reason: skip)
            case .remove(let index):
                if try driver.queue.remove(at: index).currentRemoved {
                    if let next = driver.queue.currentIndex { return loadItem(next, reason: skip) }
                    context.stop()
                }
            case .move(let from, let to): try driver.queue.move(from: from, to: to)
            case .clear:
                driver.queue.clear()
                context.stop()
            case .jump(let index):
                try driver.queue.jump(to: index)
                return loadItem(index, reason: skip)
            case .next, .previous:
                let target = command.isNext ? driver.queue.advance(reason: .skipped) : driver.queue.previous()
                if let target { return loadItem(target, reason: skip) }
                if command.isNext, before != nil { context.stop() }
            case .loop(let mode): driver.queue.loop = mode
            case .shuffle(let on, let seed):
                if let seed, on {
                    driver.queue = PlayQueue(reseeding: driver.queue, seed: seed)
                }
                driver.queue.setShuffled(on)
            case .gapless(let on): driver.gapless = on
            case .autoAdvance(let on): driver.autoAdvance = on
            case .itemStart(let start): driver.itemStart = start
            }
        } catch {
            context.publish(.warning(PlayerError(kind: .invalidArgument, message: error.description)))
        }
        prepareHandover()
        let after = driver.publishSnapshot()
        if after != published { context.publish(QueueEvent.queueChanged(after)) }   // settings that change nothing stay quiet
    }

    /// Loads the item at `index` (a fresh load: READY, uri, PAUSED), keeping the user's play/pause intent.
    /// `reason` nil: no item was current before (the queue's start), so no `itemChanged` is
    /// published; the `queueChanged` naming the new current item then comes before its
    /// `uriLoaded` instead of after it, so the index still arrives first. `ended`: the end of the
    /// item current before, published first when `reason` is ``ItemChangeReason/ended``.
    func loadItem(_ index: Int, reason: ItemChangeReason?, ended: QueueEvent? = nil) {
        guard let context, let item = try? queue.item(at: index) else { return }
        let wasLoaded = context.progress.isActive
        let intent = context.intent
        reset()
        let announced: QueueSnapshot? = reason == nil ? publishSnapshot() : nil
        if let reason { announce(index, reason: reason, ended: ended) }
        if let announced { context.publish(QueueEvent.queueChanged(announced)) }
        context.load(item.uri, start: item.start.map { .time($0) } ?? itemStart)
        if item.start != nil { try? queue.setStart(nil, at: index) }
        if wasLoaded && intent != .none { context.intent = intent }
        prepareHandover()
        let snapshot = publishSnapshot()
        if snapshot != announced { context.publish(QueueEvent.queueChanged(snapshot)) }
    }

    /// Tells the feeder what comes next (two items ahead), or nothing when gapless is off, items
    /// do not follow each other automatically, the rate is negative, the media is live, or the
    /// next item needs a start position.
    func prepareHandover() {
        let driver = self
        guard let context, driver.isActive, driver.gapless, driver.autoAdvance, driver.itemStart == nil, context.rate > 0, !context.isLive else {
            return driver.feeder.prepare(upcoming: [])
        }
        let queued = driver.queue, pending = driver.pending
        // Under the feeder's lock: a hand-over made on the streaming thread whose bus message is
        // still on its way counts as handed over too, or its URI would be offered twice.
        driver.feeder.prepare { handedOverNotTaken in
            var lookahead = queued
            for _ in 0..<(pending.count + handedOverNotTaken.count) { lookahead.advance(reason: .ended) }
            var uris: [String] = []
            while uris.count < 2, let index = lookahead.advance(reason: .ended), let item = try? lookahead.item(at: index),
                  item.start == nil, QueueFeature.mayOpen(item.uri) {
                uris.append(item.uri)
            }
            return uris
        }
    }
}

extension QueueCommand {
    var isNext: Bool { if case .next = self { return true } else { return false } }
}
