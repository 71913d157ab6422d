import Backend

/// Which queue item a player event belongs to, as the player's snapshot stood when the event was
/// raised (`PlayerEventRecord/item(names:)`): its 0-based index, the queue's size, its URI and
/// the location as typed. Made per event, never kept. A plain value; any thread.
public struct EventItem: Equatable, Sendable {
    /// The item's 0-based index in the queue (0 without a queue).
    public var index: Int
    /// How many items the queue has (0 without a queue).
    public var count: Int
    /// The location as typed (``LocationNames``), else its URI.
    public var location: String
    /// The item's URI.
    public var uri: String?
    /// Where the item is in the play order (0-based; differs from `index` when shuffled).
    public var playPosition: Int?

    /// An item at `index` of `count`, shown as `location`.
    public init(index: Int, count: Int, location: String, uri: String? = nil, playPosition: Int? = nil) {
        self.index = index
        self.count = count
        self.location = location
        self.uri = uri
        self.playPosition = playPosition
    }
}

extension PlayerEventRecord {
    /// The item the event belongs to: the media loaded when it was raised (a `uriLoaded`'s own
    /// URI) and the queue's current item then; nil before the first load. `names` gives the
    /// location as typed.
    public func item(names: LocationNames) -> EventItem? {
        var loaded = snapshot.uri
        if case .uriLoaded(let uri) = event { loaded = uri }
        guard let uri = loaded else { return nil }
        let queue = snapshot.features[QueueSnapshot.self]
        return EventItem(index: queue?.currentIndex ?? 0, count: queue?.items.count ?? 0, location: names.name(of: uri), uri: uri,
                         playPosition: queue?.playPosition)
    }

    /// Whether the event is about what the player is on `now` (its `Player/snapshot`): no load
    /// began and the queue did not move to another item since it was raised (a `next`, `jump` or
    /// `load` that ran after an end of stream makes that end the old item's).
    public func isCurrent(now: PlayerSnapshot) -> Bool {
        func currentItem(_ snapshot: PlayerSnapshot) -> Int? {
            snapshot.features[QueueSnapshot.self].flatMap { queue in queue.currentIndex.flatMap { queue.items[$0].id } }
        }
        return loadID == now.loadID && currentItem(snapshot) == currentItem(now)
    }
}
