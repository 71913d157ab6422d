import BackendCore

/// The play queue (seed 002's AVQueuePlayer, mpv's playlist): items played one after another,
/// gaplessly by default, with loop modes and a stable shuffle.
///
/// **Threads:** every method is safe from any thread and queued onto the loop thread like the
/// other commands. Index arguments are checked against ``queue`` (the last published state) and
/// throw ``QueueError`` at once; if the queue changed before the command runs, the error comes as
/// a `PlayerEvent.warning(_:)` instead. Changes are announced with
/// ``QueueEvent/queueChanged(_:)``; a move from one current item to another with
/// ``QueueEvent/itemChanged(index:id:reason:)``, after ``QueueEvent/itemEnded(index:id:position:)``
/// when the previous item played to its end (the first item of a queue, with nothing current
/// before, is announced by its `uriLoaded` and the queue snapshot only). Every item gets an
/// ``QueueItem/id`` when it is added. Needs the player's ``QueueFeature`` (the standard
/// features include it); without one these calls do nothing.
///
/// Once a queue is in use, the end of an item moves to the next (``LoopMode`` decides at the end
/// of the list) and a failing item is reported (`PlayerEvent.error(_:)`) and skipped; only the
/// end of the whole queue is an `PlayerEvent.endOfStream(position:)`. A plain
/// `Player.load(_:startAt:)` meanwhile plays that URI; at its end the queue goes on after its
/// current item. Gapless hand-over is skipped while a video stream plays (audio only), at negative
/// rates, for live media, for items with a
/// ``QueueItem/start`` and for local files that cannot be read (those load after an end of stream).
public extension Player {
    /// The queue as last published: the queue's section of `snapshot` (any thread, no waiting).
    var queue: QueueSnapshot { snapshot.features[QueueSnapshot.self] ?? QueueSnapshot() }

    /// The queue once every command issued before this call has run on the loop thread; suspends
    /// without blocking a thread (safe from any task, also one a delegate callback started). After
    /// shutdown, the last published state. The index checks of the calls below then see it too.
    func currentQueue() async -> QueueSnapshot {
        await withCheckedContinuation { (continuation: CheckedContinuation<QueueSnapshot, Never>) in
            let queued = withFeature(QueueFeature.self) { feature, _ in
                if feature.discovery.snapshotIsStale { feature.publishSnapshot() }      // discovery results not yet published
                continuation.resume(returning: feature.published)
            }
            if !queued { continuation.resume(returning: queue) }
        }
    }

    /// Replaces the queue with `items` and loads the item at `index` — or, when nil, the first
    /// in play order (a shuffled queue starts with a random item). An empty list stops playback.
    func setQueue(_ items: [QueueItem], startingAt index: Int? = nil) throws(QueueError) {
        if let index, !items.indices.contains(index) { throw .indexOutOfRange(index: index, count: items.count) }
        queueCommand(.replace(items, start: index))
    }

    /// Adds items at the end of the queue.
    func appendToQueue(_ items: [QueueItem]) { queueCommand(.append(items)) }

    /// Inserts `item` before `index` (`count` appends).
    func insertInQueue(_ item: QueueItem, at index: Int) throws(QueueError) {
        let count = queue.items.count
        guard index >= 0 && index <= count else { throw .indexOutOfRange(index: index, count: count) }
        queueCommand(.insert(item, at: index))
    }

    /// Inserts `item` right after the current item (at the end when there is none, as the queue
    /// stands when the command runs) and plays it (mpv's `loadfile … insert-next-play`).
    func playNow(_ item: QueueItem) { queueCommand(.playNow(item)) }

    /// Removes the item at `index`; removing the current item plays the one that follows it.
    func removeFromQueue(at index: Int) throws(QueueError) {
        try checkQueueIndex(index)
        queueCommand(.remove(index))
    }

    /// Moves the item at `from` to index `to`; the current item keeps playing.
    func moveInQueue(from: Int, to: Int) throws(QueueError) {
        try checkQueueIndex(from)
        try checkQueueIndex(to)
        queueCommand(.move(from: from, to: to))
    }

    /// Removes every item and stops.
    func clearQueue() { queueCommand(.clear) }

    /// Plays the item at `index`.
    func jumpInQueue(to index: Int) throws(QueueError) {
        try checkQueueIndex(index)
        queueCommand(.jump(index))
    }

    /// Plays the next item in play order (after the last: the first with ``LoopMode/all``,
    /// otherwise playback stops). AVQueuePlayer's `advanceToNextItem()`.
    func advanceToNextItem() { queueCommand(.next) }

    /// Plays the previous item in play order (wraps with ``LoopMode/all``; at the first item
    /// without it, nothing happens).
    func returnToPreviousItem() { queueCommand(.previous) }

    /// Sets what happens at the end of an item.
    func setLoopMode(_ mode: LoopMode) { queueCommand(.loop(mode)) }

    /// Turns shuffling on (a new pass starting at the current item; `seed` fixes the order,
    /// nil keeps the queue's seed) or off.
    func setShuffled(_ on: Bool, seed: UInt64? = nil) { queueCommand(.shuffle(on, seed: seed)) }

    /// Turns gapless hand-over (playbin's `about-to-finish`) on or off. Off: each item ends with
    /// EOS and the next is loaded afresh.
    func setGapless(_ on: Bool) { queueCommand(.gapless(on)) }

    /// Turns automatic advancing on (the default) or off. Off: each item stops at its end with an
    /// `PlayerEvent.endOfStream(position:)` and stays the current item (no gapless hand-over)
    /// until the application moves on with ``advanceToNextItem()`` or ``jumpInQueue(to:)``; a
    /// failing item is still skipped. Like mpv's `keep-open`.
    func setAdvancesAutomatically(_ on: Bool) { queueCommand(.autoAdvance(on)) }

    /// Where every item without a ``QueueItem/start`` of its own starts (nil: at the beginning),
    /// also when it repeats: a time, or a fraction of the item's duration. Such items load
    /// afresh, never gaplessly (the start needs a seek after preroll).
    func setQueueItemStart(_ start: StartPosition?) { queueCommand(.itemStart(start)) }

    /// Turns the background discovery of the items' media info (duration, title, artist, album,
    /// video, playability: ``QueueItem/info``, GstDiscoverer, one local file at a time, nearest
    /// the current item first) on — the default — or off. Results come as
    /// ``QueueEvent/itemUpdated(index:item:)``; an item found unplayable is skipped when its turn
    /// comes (``QueueEvent/itemSkipped(index:id:error:)``).
    func setQueueDiscovery(_ on: Bool) { queueCommand(.discovery(on)) }

    /// Queues `command` on the loop thread for the queue feature.
    private func queueCommand(_ command: QueueCommand) {
        withFeature(QueueFeature.self) { feature, _ in feature.run(command) }
    }

    private func checkQueueIndex(_ index: Int) throws(QueueError) {
        let count = queue.items.count
        guard index >= 0 && index < count else { throw .indexOutOfRange(index: index, count: count) }
    }
}
