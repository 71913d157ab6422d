import Synchronization

/// The engine component that plays a ``PlayQueue``: the queue itself, the gapless feeder, the
/// hand-overs not yet heard of at the sinks, and a snapshot for getters.
///
/// **Thread:** ``queue``, ``pending`` and the counters are touched on the loop thread only (by the
/// `Engine+Queue` routing); ``snapshot`` is lock-protected and read from any thread; the
/// ``feeder`` is shared with playbin's streaming thread through its own lock.
/// `@unchecked Sendable` only so ``Player`` can read the snapshot.
final class QueueDriver: @unchecked Sendable {
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
    /// After a gapless switch, position queries may still answer from the previous item's
    /// segment for a moment: positions at or above this (the old item's end minus 0.3 s) are
    /// stale until the first one below it arrives.
    var stalePositionsFrom: MediaTime?
    /// The `about-to-finish` hand-over.
    let feeder = GaplessFeeder()
    private let published = Mutex(QueueSnapshot())

    /// The queue as last published (any thread).
    var snapshot: QueueSnapshot { published.withLock { $0 } }

    /// Stores the current state for getters and returns it (loop thread).
    @discardableResult
    func publishSnapshot() -> QueueSnapshot {
        let value = queue.snapshot(gapless: gapless)
        published.withLock { $0 = value }
        return value
    }

    /// True for a position left over from the previous item (see ``stalePositionsFrom``).
    func isStale(_ position: MediaTime) -> Bool {
        guard let limit = stalePositionsFrom else { return false }
        if position >= limit { return true }
        stalePositionsFrom = nil
        return false
    }

    /// Forgets hand-overs in flight (a new load or a stop flushes them).
    func reset() {
        pending.removeAll()
        stalePositionsFrom = nil
        feeder.reset()
    }
}
