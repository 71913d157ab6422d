/// The play queue (seed 002's AVQueuePlayer, mpv's playlist): items played one after another,
/// gaplessly by default, with loop modes and a stable shuffle.
///
/// **Threads:** every method is safe from any thread and queued onto the loop thread like the
/// other commands. Index arguments are checked against ``queue`` (the last published state) and
/// throw ``QueueError`` at once; if the queue changed before the command runs, the error comes as
/// a ``PlayerEvent/warning(_:)`` instead. Changes are announced with
/// ``PlayerEvent/queueChanged(_:)``; a move from one current item to another with
/// ``PlayerEvent/itemChanged(index:reason:)`` (the first item of a queue, with nothing current
/// before, is announced by its `uriLoaded` and the queue snapshot only).
///
/// Once a queue is in use, the end of an item moves to the next (``LoopMode`` decides at the end
/// of the list) and a failing item is reported (``PlayerEvent/error(_:)``) and skipped; only the
/// end of the whole queue is an ``PlayerEvent/endOfStream(position:)``. A plain
/// ``Player/load(_:startAt:)`` meanwhile plays that URI; at its end the queue goes on after its
/// current item. Gapless hand-over is skipped while a video stream plays (audio only), at negative
/// rates, for live media, for items with a
/// ``QueueItem/start`` and for local files that cannot be read (those load after an end of stream).
public extension Player {
    /// The queue as last published (any thread, no waiting).
    var queue: QueueSnapshot { engine.queue.snapshot }

    /// The queue once every command issued before this call has run: waits for the loop thread
    /// (like ``currentPosition()``; never call it from a delegate callback on that thread). After
    /// shutdown, the last published state. The index checks of the calls below then see it too.
    func currentQueue() -> QueueSnapshot {
        _ = queryAndWait { _ in }
        return queue
    }

    /// Replaces the queue with `items` and loads the item at `index` — or, when nil, the first
    /// in play order (a shuffled queue starts with a random item). An empty list stops playback.
    func setQueue(_ items: [QueueItem], startingAt index: Int? = nil) throws(QueueError) {
        if let index, !items.indices.contains(index) { throw .indexOutOfRange(index: index, count: items.count) }
        command { $0.runQueue(.replace(items, start: index)) }
    }

    /// Adds items at the end of the queue.
    func appendToQueue(_ items: [QueueItem]) { command { $0.runQueue(.append(items)) } }

    /// Inserts `item` before `index` (`count` appends).
    func insertInQueue(_ item: QueueItem, at index: Int) throws(QueueError) {
        let count = queue.items.count
        guard index >= 0 && index <= count else { throw .indexOutOfRange(index: index, count: count) }
        command { $0.runQueue(.insert(item, at: index)) }
    }

    /// Inserts `item` right after the current item (at the end when there is none, as the queue
    /// stands when the command runs) and plays it (mpv's `loadfile … insert-next-play`).
    func playNow(_ item: QueueItem) { command { $0.runQueue(.playNow(item)) } }

    /// Removes the item at `index`; removing the current item plays the one that follows it.
    func removeFromQueue(at index: Int) throws(QueueError) {
        try checkQueueIndex(index)
        command { $0.runQueue(.remove(index)) }
    }

    /// Moves the item at `from` to index `to`; the current item keeps playing.
    func moveInQueue(from: Int, to: Int) throws(QueueError) {
        try checkQueueIndex(from)
        try checkQueueIndex(to)
        command { $0.runQueue(.move(from: from, to: to)) }
    }

    /// Removes every item and stops.
    func clearQueue() { command { $0.runQueue(.clear) } }

    /// Plays the item at `index`.
    func jumpInQueue(to index: Int) throws(QueueError) {
        try checkQueueIndex(index)
        command { $0.runQueue(.jump(index)) }
    }

    /// Plays the next item in play order (after the last: the first with ``LoopMode/all``,
    /// otherwise playback stops). AVQueuePlayer's `advanceToNextItem()`.
    func advanceToNextItem() { command { $0.runQueue(.next) } }

    /// Plays the previous item in play order (wraps with ``LoopMode/all``; at the first item
    /// without it, nothing happens).
    func returnToPreviousItem() { command { $0.runQueue(.previous) } }

    /// Sets what happens at the end of an item.
    func setLoopMode(_ mode: LoopMode) { command { $0.runQueue(.loop(mode)) } }

    /// Turns shuffling on (a new pass starting at the current item; `seed` fixes the order,
    /// nil keeps the queue's seed) or off.
    func setShuffled(_ on: Bool, seed: UInt64? = nil) { command { $0.runQueue(.shuffle(on, seed: seed)) } }

    /// Turns gapless hand-over (playbin's `about-to-finish`) on or off. Off: each item ends with
    /// EOS and the next is loaded afresh.
    func setGapless(_ on: Bool) { command { $0.runQueue(.gapless(on)) } }

    /// Turns automatic advancing on (the default) or off. Off: each item stops at its end with an
    /// ``PlayerEvent/endOfStream(position:)`` (no gapless hand-over); ``advanceToNextItem()`` and
    /// ``jumpInQueue(to:)`` move on, and a failing item is still skipped. For `--keep-open`.
    func setAdvancesAutomatically(_ on: Bool) { command { $0.runQueue(.autoAdvance(on)) } }

    /// Where every item without a ``QueueItem/start`` of its own starts (nil: at the beginning),
    /// also when it repeats. Such items load afresh, never gaplessly. For `--start`.
    func setQueueItemStart(_ start: StartPosition?) { command { $0.runQueue(.itemStart(start)) } }

    private func checkQueueIndex(_ index: Int) throws(QueueError) {
        let count = queue.items.count
        guard index >= 0 && index < count else { throw .indexOutOfRange(index: index, count: count) }
    }
}
