import BackendCore

/// The play queue's events, delivered as `PlayerEvent.feature(_:)` (read them with
/// `event.payload(as: QueueEvent.self)`), in order with the core's events, on the loop thread
/// like every event (see `PlayerDelegate`).
///
/// For one item that plays to its end and is followed by the next: ``itemEnded(index:id:position:)``,
/// ``itemChanged(index:id:reason:)`` with reason ``ItemChangeReason/ended``, the core's
/// `PlayerEvent.uriLoaded(_:)`, then ``queueChanged(_:)``. The last item of the queue ends with
/// the core's `PlayerEvent.endOfStream(position:)` instead (it stays current).
public enum QueueEvent: FeatureEventPayload {
    /// The queue changed: items, current item, loop, shuffle or gapless (`Player.queue`).
    case queueChanged(QueueSnapshot)
    /// Another queue item became current: loaded after a skip or an error, or — gaplessly —
    /// started at the sinks after the previous one `ended`. Comes right before the item's
    /// `PlayerEvent.uriLoaded(_:)`. `id` is the item's ``QueueItem/id``.
    case itemChanged(index: Int, id: Int, reason: ItemChangeReason)
    /// The current item played to its end and the queue moves on (to the next item, or to the
    /// same one again with ``LoopMode/one``): at a gapless hand-over, before an automatic advance,
    /// and when the item handed over after it failed. `position` is where it ended (its duration
    /// when known, else its last position); `index` is its index at that moment.
    case itemEnded(index: Int, id: Int, position: MediaTime)
    /// Items were added at `index` (an append, insert, `playNow` or a whole new queue), in
    /// order. Published with the ``queueChanged(_:)`` of the same change (a consumer
    /// that keeps its own list applies changes instead of re-reading every item).
    case itemsInserted(index: Int, items: [QueueItem])
    /// `count` items were removed from `index` on (a remove, a clear, a queue replaced).
    case itemsRemoved(index: Int, count: Int)
    /// The item `id` moved from index `from` to `to`.
    case itemMoved(from: Int, to: Int, id: Int)
    /// What is known about the item at `index` changed: the discoverer's ``QueueItem/info``.
    case itemUpdated(index: Int, item: QueueItem)
    /// The queue passed over the item at `index` (`id`) on its way to the next one: the
    /// discoverer had found it unplayable (`error`), so it was never loaded.
    case itemSkipped(index: Int, id: Int, error: PlayerError)
}
