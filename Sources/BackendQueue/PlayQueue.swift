import BackendCore

/// The list of things to play and where playback is in it: items, the current item, the loop
/// mode and a stable shuffle. Pure logic, no GStreamer (seed 002's AVQueuePlayer, mpv's playlist).
///
/// **Shuffle** is a seeded permutation: the same seed gives the same order. Each *pass* over
/// the queue visits every item exactly once; with ``LoopMode/all`` the next pass is a new
/// permutation (derived from the seed and the pass number) that does not start with the item
/// that ended the previous one. Items added while shuffling join the unplayed rest of the pass.
///
/// Indices are 0-based positions in ``items`` (the list order, not the play order).
/// A value type: use it from one thread at a time (the player keeps it on its loop thread).
/// Internal: the player's API is ``Player/setQueue(_:startingAt:)`` and its siblings; tests use
/// it through `@testable import BackendQueue`.
struct PlayQueue: Sendable, Hashable {
    /// One item and its id (internal for `PlayQueue+Info.swift`).
    struct Entry: Sendable, Hashable {
        let id: Int
        var item: QueueItem
        /// The item carrying its id.
        var identified: QueueItem { var copy = item; copy.id = id; return copy }
    }

    /// The items in list order (internal for `PlayQueue+Info.swift`).
    var entries: [Entry] = []
    /// Ids of items ``advance(reason:)`` passed over because they were found unplayable
    /// (``QueueItemInfo/isPlayable``), oldest first, until ``takeSkipped()`` (`PlayQueue+Info.swift`).
    var skipped: [Int] = []
    /// The ``QueueItem/id`` the next added item gets.
    private(set) var nextID = 0
    private var currentID: Int?
    /// Shuffle play order (entry ids) of the current pass and the position of the current item in it.
    private var order: [Int] = []
    private var cursor = -1

    /// What happens when an item ends.
    var loop: LoopMode
    /// Whether the play order is shuffled. Turning it on starts a new pass at the current item.
    private(set) var isShuffled = false
    /// The shuffle seed.
    let seed: UInt64
    /// The shuffle pass (0 for the first, +1 each time a looping shuffled queue wraps).
    private(set) var pass = 0

    /// Creates a queue; the items get ids from `firstID` on (a replacement queue continues the
    /// ids of the one it replaces, so an id names one entry for the player's life).
    init(items: [QueueItem] = [], loop: LoopMode = .none, shuffled: Bool = false, seed: UInt64 = 0, firstID: Int = 0) {
        self.loop = loop
        self.seed = seed
        self.nextID = firstID
        for item in items { append(item) }
        if shuffled { setShuffled(true) }
    }

    /// The same entries (ids, current item and loop mode kept) with another shuffle seed, not
    /// shuffled: call ``setShuffled(_:)`` to start a pass.
    init(reseeding other: PlayQueue, seed: UInt64) {
        self.loop = other.loop
        self.seed = seed
        self.entries = other.entries
        self.nextID = other.nextID
        self.currentID = other.currentID
    }

    // MARK: Reading

    /// The items in list order, each with its ``QueueItem/id``.
    var items: [QueueItem] { entries.map(\.identified) }
    /// Number of items.
    var count: Int { entries.count }
    /// True without items.
    var isEmpty: Bool { entries.isEmpty }
    /// The index of the current item, nil before the start, after the end or when empty.
    var currentIndex: Int? { currentID.flatMap { id in entries.firstIndex { $0.id == id } } }
    /// The current item.
    var current: QueueItem? { currentIndex.map { entries[$0].identified } }
    /// The item at `index`, with its id. Throws ``QueueError/indexOutOfRange(index:count:)``.
    func item(at index: Int) throws(QueueError) -> QueueItem { try checked(index); return entries[index].identified }

    /// The index ``advance(reason:)`` would move to, without moving (for gapless pre-roll).
    func peekNext(reason: ItemChangeReason = .ended) -> Int? {
        var copy = self
        return copy.advance(reason: reason)
    }

    /// The index ``previous()`` would move to, without moving.
    func peekPrevious() -> Int? {
        var copy = self
        return copy.previous()
    }

    /// The remaining play order from the current item on (list indices), for display.
    var upcoming: [Int] {
        if isShuffled {
            return order.dropFirst(max(cursor, 0)).compactMap { id in entries.firstIndex { $0.id == id } }
        }
        return Array((currentIndex ?? 0)..<count)
    }

    // MARK: Editing

    /// Adds `item` at the end.
    mutating func append(_ item: QueueItem) {
        try! insert(item, at: entries.count)
    }

    /// Inserts `item` before `index` (`count` appends). Throws for an index outside `0...count`.
    mutating func insert(_ item: QueueItem, at index: Int) throws(QueueError) {
        guard index >= 0 && index <= entries.count else { throw .indexOutOfRange(index: index, count: entries.count) }
        let entry = Entry(id: nextID, item: item)
        nextID += 1
        entries.insert(entry, at: index)
        guard isShuffled else { return }
        // A new item joins the unplayed rest of this pass at a seeded position.
        let low = cursor + 1
        var rng = SeededGenerator(seed: seed, stream: UInt64(pass) &* 0x9E37 &+ UInt64(entry.id))
        let slot = low + Int(rng.next() % UInt64(order.count - low + 1))
        order.insert(entry.id, at: slot)
    }

    /// Removes the item at `index` and returns it. Removing the current item makes the item that
    /// would have played next current (nil at the end); `currentRemoved` says so.
    @discardableResult
    mutating func remove(at index: Int) throws(QueueError) -> (item: QueueItem, currentRemoved: Bool) {
        try checked(index)
        let entry = entries[index]
        let wasCurrent = entry.id == currentID
        var successor: Int?
        if wasCurrent { successor = peekNext(reason: .skipped).map { entries[$0].id } }
        if successor == entry.id { successor = nil }
        entries.remove(at: index)
        if let position = order.firstIndex(of: entry.id) {
            order.remove(at: position)
            if position <= cursor { cursor -= 1 }
        }
        if wasCurrent {
            currentID = nil
            if let successor { select(id: successor) }
        }
        return (entry.identified, wasCurrent)
    }

    /// Moves the item at `from` so that it ends up at index `to`. The current item stays current.
    mutating func move(from: Int, to: Int) throws(QueueError) {
        try checked(from)
        try checked(to)
        let entry = entries.remove(at: from)
        entries.insert(entry, at: to)
    }

    /// Removes every item; nothing is current.
    mutating func clear() {
        entries.removeAll()
        order.removeAll()
        cursor = -1
        currentID = nil
    }

    /// Replaces the title of the item at `index` (e.g. from the stream's tags).
    mutating func setTitle(_ title: String?, at index: Int) throws(QueueError) {
        try checked(index)
        entries[index].item.title = title
    }

    /// Replaces the start position of the item at `index` (nil: from the beginning).
    mutating func setStart(_ start: MediaTime?, at index: Int) throws(QueueError) {
        try checked(index)
        entries[index].item.start = start
    }

    /// The current item as a snapshot value with the given modes.
    func snapshot(gapless: Bool) -> QueueSnapshot {
        var snapshot = QueueSnapshot(items: items, currentIndex: currentIndex, loop: loop, shuffled: isShuffled, gapless: gapless,
                                     nextIndex: peekNext(reason: .skipped), previousIndex: peekPrevious())
        snapshot.playPosition = isShuffled && currentID != nil && cursor >= 0 ? cursor : currentIndex
        return snapshot
    }

    // MARK: Moving

    /// Makes the item at `index` current. While shuffling it becomes the next step of the pass
    /// (taken out of wherever it was), so the rest of the pass is unchanged.
    mutating func jump(to index: Int) throws(QueueError) {
        try checked(index)
        select(id: entries[index].id)
    }

    /// Moves to the next item and returns its index; nil (and nothing current) at the end.
    /// With ``LoopMode/one`` an item that `ended` repeats; skipping moves on (and stops after the last).
    /// With ``LoopMode/all`` the last item wraps to the first (a new pass when shuffling).
    /// Items found unplayable are passed over (remembered in ``skipped``), unless every step
    /// lands on one.
    @discardableResult
    mutating func advance(reason: ItemChangeReason = .ended) -> Int? {
        var index = step(reason: reason)
        var steps = 0
        while let found = index, entries[found].item.info?.isPlayable == false, steps < entries.count {
            skipped.append(entries[found].id)
            index = step(reason: .skipped)
            steps += 1
        }
        return index
    }

    /// One step of ``advance(reason:)``.
    private mutating func step(reason: ItemChangeReason) -> Int? {
        guard !entries.isEmpty else { currentID = nil; return nil }
        if loop == .one, reason == .ended, let index = currentIndex { return index }
        if isShuffled {
            if cursor + 1 < order.count {
                cursor += 1
            } else if loop == .all {
                startPass(number: pass + 1, avoidingFirst: currentID)
                cursor = 0
            } else {
                currentID = nil
                return nil
            }
            currentID = order[cursor]
            return currentIndex
        }
        let next = currentIndex.map { $0 + 1 } ?? 0
        if next < entries.count {
            currentID = entries[next].id
        } else if loop == .all {
            currentID = entries[0].id
        } else {
            currentID = nil
        }
        return currentIndex
    }

    /// Moves to the previous item (in play order) and returns its index. At the first item it
    /// wraps to the last with ``LoopMode/all``, otherwise it stays and returns nil.
    @discardableResult
    mutating func previous() -> Int? {
        guard !entries.isEmpty else { return nil }
        if isShuffled {
            if cursor > 0 { cursor -= 1 } else if loop == .all, !order.isEmpty { cursor = order.count - 1 } else { return nil }
            currentID = order[cursor]
            return currentIndex
        }
        guard let index = currentIndex else { return nil }
        if index > 0 { currentID = entries[index - 1].id } else if loop == .all { currentID = entries[entries.count - 1].id } else { return nil }
        return currentIndex
    }

    /// Turns shuffling on or off. On: a new pass begins with the current item (if any) followed by
    /// a seeded permutation of the others. Off: the list order applies again from the current item.
    mutating func setShuffled(_ on: Bool) {
        guard on != isShuffled else { return }
        isShuffled = on
        order.removeAll()
        cursor = -1
        guard on else { return }
        startPass(number: pass, avoidingFirst: nil)
        if let currentID, let position = order.firstIndex(of: currentID) {
            order.remove(at: position)
            order.insert(currentID, at: 0)
            cursor = 0
        }
    }

    // MARK: Internals

    private func checked(_ index: Int) throws(QueueError) {
        guard entries.indices.contains(index) else { throw .indexOutOfRange(index: index, count: entries.count) }
    }

    /// Makes `id` current; while shuffling it is taken out of the order and put right after the cursor.
    private mutating func select(id: Int) {
        currentID = id
        guard isShuffled else { return }
        if let position = order.firstIndex(of: id) {
            order.remove(at: position)
            if position <= cursor { cursor -= 1 }
        }
        order.insert(id, at: cursor + 1)
        cursor += 1
    }

    /// A fresh permutation of every item for pass `number` (Fisher–Yates on a seeded generator);
    /// `avoidingFirst` is not first when another item can be.
    private mutating func startPass(number: Int, avoidingFirst: Int?) {
        pass = number
        var ids = entries.map(\.id)
        var rng = SeededGenerator(seed: seed, stream: UInt64(number))
        if ids.count > 1 {
            for i in stride(from: ids.count - 1, to: 0, by: -1) {
                let j = Int(rng.next() % UInt64(i + 1))
                ids.swapAt(i, j)
            }
        }
        if let avoidingFirst, ids.count > 1, ids[0] == avoidingFirst { ids.swapAt(0, 1) }
        order = ids
        cursor = -1
    }
}
