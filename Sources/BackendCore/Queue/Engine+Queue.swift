import CGStreamer
import Glibc

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

/// Queue routing (loop thread): commands from ``Player``, and the bus messages that move a
/// queue along — the gapless hand-over, `STREAM_START`, end of stream and errors.
extension Engine {
    /// Connects the gapless feeder to playbin's `about-to-finish` (init).
    func connectQueue() {
        guard let pipeline, let playbin = pipeline.object else { return }
        pipeline.track(handler: queue.feeder.connect(to: playbin), on: playbin)
    }

    /// Runs a queue command and announces the queue if it changed. Index errors (the queue
    /// changed since the caller checked) become a warning.
    func runQueue(_ command: QueueCommand) {
        preconditionOnLoop()
        let driver = queue
        driver.isActive = true
        let before = driver.queue.currentIndex, published = driver.snapshot
        // A skip only when an item was current: the first item of a queue is not "skipped" to (issue 20, item 12).
        let skip: ItemChangeReason? = before == nil ? nil : .skipped
        do {
            switch command {
            case .replace(let items, let start):
                driver.queue = PlayQueue(items: items, loop: driver.queue.loop, shuffled: driver.queue.isShuffled, seed: driver.queue.seed)
                driver.consecutiveFailures = 0
                if let start { try driver.queue.jump(to: start) } else { driver.queue.advance(reason: .skipped) }
                if let index = driver.queue.currentIndex { return loadQueueItem(index, reason: skip) }
                stop()
            case .append(let items): for item in items { driver.queue.append(item) }
            case .insert(let item, let index): try driver.queue.insert(item, at: index)
            case .playNow(let item):
                let index = driver.queue.currentIndex.map { $0 + 1 } ?? driver.queue.count
                try driver.queue.insert(item, at: index)
                try driver.queue.jump(to: index)
                return loadQueueItem(index, reason: skip)
            case .remove(let index):
                if try driver.queue.remove(at: index).currentRemoved {
                    if let next = driver.queue.currentIndex { return loadQueueItem(next, reason: skip) }
                    stop()
                }
            case .move(let from, let to): try driver.queue.move(from: from, to: to)
            case .clear:
                driver.queue.clear()
                stop()
            case .jump(let index):
                try driver.queue.jump(to: index)
                return loadQueueItem(index, reason: skip)
            case .next, .previous:
                let target = command.isNext ? driver.queue.advance(reason: .skipped) : driver.queue.previous()
                if let target { return loadQueueItem(target, reason: skip) }
                if command.isNext, before != nil { stop() }
            case .loop(let mode): driver.queue.loop = mode
            case .shuffle(let on, let seed):
                if let seed, on {
                    var reseeded = PlayQueue(items: driver.queue.items, loop: driver.queue.loop, seed: seed)
                    if let index = driver.queue.currentIndex { try reseeded.jump(to: index) }
                    driver.queue = reseeded
                }
                driver.queue.setShuffled(on)
            case .gapless(let on): driver.gapless = on
            case .autoAdvance(let on): driver.autoAdvance = on
            case .itemStart(let start): driver.itemStart = start
            }
        } catch {
            publish(.warning(PlayerError(kind: .invalidArgument, message: error.description)))
        }
        prepareHandover()
        let after = driver.publishSnapshot()
        if after != published { publish(.queueChanged(after)) }   // settings that change nothing stay quiet
    }

    /// Loads the item at `index` (a fresh load: READY, uri, PAUSED), keeping the user's play/pause intent.
    /// `reason` nil: no item was current before (the queue's start), so no `itemChanged` is
    /// published; the `queueChanged` naming the new current item then comes before its
    /// `uriLoaded` instead of after it, so the index still arrives first.
    func loadQueueItem(_ index: Int, reason: ItemChangeReason?) {
        let driver = queue
        guard let item = try? driver.queue.item(at: index) else { return }
        let wasLoaded = playback.inputs.loaded && !playback.inputs.failed
        let intent = playback.inputs.intent, target = playback.target
        driver.reset()
        let announced: QueueSnapshot? = reason == nil ? driver.publishSnapshot() : nil
        if let reason { publish(.itemChanged(index: index, reason: reason)) }
        if let announced { publish(.queueChanged(announced)) }
        load(.success(item.uri), original: item.uri, start: item.start.map { .time($0) } ?? driver.itemStart)
        if item.start != nil { try? driver.queue.setStart(nil, at: index) }
        if wasLoaded && intent != .none {
            playback.inputs.intent = intent
            playback.target = target
        }
        prepareHandover()
        let snapshot = driver.publishSnapshot()
        if snapshot != announced { publish(.queueChanged(snapshot)) }
    }

    /// Tells the feeder what comes next (two items ahead), or nothing when gapless is off, items
    /// do not follow each other automatically, the rate is negative, the media is live, or the
    /// next item needs a start position.
    func prepareHandover() {
        let driver = queue
        guard driver.isActive, driver.gapless, driver.autoAdvance, driver.itemStart == nil, playback.rate > 0, !facts.isLive else {
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
                  item.start == nil, Self.mayOpen(item.uri) {
                uris.append(item.uri)
            }
            return uris
        }
    }

    /// False for a local file that cannot be read (`access(R_OK)`) or is not a regular file (a
    /// FIFO would be opened blocking by `filesrc` on a streaming thread): such an item is not
    /// handed over gaplessly (an error in the middle of a hand-over would cut the playing item
    /// short); it is loaded after the end of stream (a FIFO through ``FIFOSource``), on its own.
    static func mayOpen(_ uri: String) -> Bool {
        guard let path = PlaylistFile.fileURIPath(uri) else { return true }
        return FIFOSource.isRegularFile(path) && access(path, R_OK) == 0
    }

    // MARK: Bus

    /// The feeder's hand-over message: remember which URIs playbin now has queued.
    func queueHandedOver() {
        queue.pending += queue.feeder.takeHandedOver()
    }

    /// `GST_MESSAGE_STREAM_START`: a handed-over item reached the sinks — it is the current item now.
    func queueStreamStarted() {
        let driver = queue
        guard driver.isActive else { return }
        guard !driver.pending.isEmpty else { driver.consecutiveFailures = 0; return }
        let uri = driver.pending.removeFirst()
        driver.consecutiveFailures = 0
        var index = driver.queue.advance(reason: .ended)
        if index.map({ driver.queue.items[$0].uri }) != uri, let found = driver.queue.items.firstIndex(where: { $0.uri == uri }) {
            try? driver.queue.jump(to: found)
            index = found
        }
        driver.stalePositionsFrom = facts.duration.map { $0 - MediaTime(seconds: 0.3) } ?? hub.snapshot.position
        facts.reset(uri: uri)
        statistics.resetForNewMedia(rate: playback.rate)
        hub.updateSnapshot { $0.uri = uri; $0.duration = nil; $0.position = .zero }
        if let index { publish(.itemChanged(index: index, reason: .ended)) }
        publish(.uriLoaded(uri))
        queryDuration()
        prepareHandover()
        publish(.queueChanged(driver.publishSnapshot()))
    }

    /// End of stream with no hand-over: moves to the next item. False when the queue is not in
    /// use, does not advance automatically, or has nothing next (the end of stream then stands).
    func queueEndOfStream() -> Bool {
        let driver = queue
        guard driver.isActive, driver.autoAdvance, driver.queue.peekNext(reason: .ended) != nil, let next = driver.queue.advance(reason: .ended) else { return false }
        loadQueueItem(next, reason: .ended)
        return true
    }

    /// An error while a queue plays: the failing item (the handed-over one if a hand-over is in
    /// flight) is reported (``fail(_:)``), then the one after it is loaded. False when the queue
    /// is not in use. Stops once every item failed in a row.
    func queueError(_ error: PlayerError) -> Bool {
        let driver = queue
        guard driver.isActive else { return false }
        var reported = error
        if let failing = driver.pending.first, let index = driver.queue.advance(reason: .ended) {
            reported.uri = failing
            publish(.itemChanged(index: index, reason: .ended))
        }
        let intent = playback.inputs.intent, target = playback.target
        driver.reset()
        fail(reported)
        driver.consecutiveFailures += 1
        guard driver.consecutiveFailures < driver.queue.count, let next = driver.queue.advance(reason: .error) else {
            publish(.queueChanged(driver.publishSnapshot()))
            return true
        }
        loadQueueItem(next, reason: .error)
        if intent != .none {
            playback.inputs.intent = intent
            playback.target = target
        }
        return true
    }
}

extension QueueCommand {
    var isNext: Bool { if case .next = self { return true } else { return false } }
}
