import BackendCore

/// One entry of the play queue (`Player.setQueue(_:startingAt:)`): what to play and,
/// optionally, how to call it.
///
/// A plain value (any thread). `uri` is what goes to `playbin.uri`.
public struct QueueItem: Sendable, Hashable, Codable {
    /// The queue's name for this entry, assigned when the item is added to the queue and kept
    /// while it stays there (moves and shuffles included); unique for the player's life. Nil for
    /// an item not (yet) in a queue. Events about the item carry it (``QueueEvent``).
    public internal(set) var id: Int?
    /// A URI `playbin` accepts (`file://…`, `http://…`).
    public var uri: String
    /// A display title (from an `#EXTINF` line or a `.pls` `TitleN=`), nil when unknown.
    public var title: String?
    /// Where to start this item (e.g. a resume position). Honoured when the item is loaded; an
    /// item with a start position is never entered gaplessly (the seek needs a fresh load).
    public var start: MediaTime?
    /// The length a playlist file gave (`#EXTINF:<seconds>,…`, `.pls` `LengthN=`), nil when
    /// unknown or not positive. ``knownDuration`` prefers the discovered one.
    public var duration: MediaTime?
    /// What the queue's discoverer found about the media (GstDiscoverer), nil before.
    public internal(set) var info: QueueItemInfo?

    /// Creates an item.
    public init(uri: String, title: String? = nil, start: MediaTime? = nil, duration: MediaTime? = nil) {
        self.uri = uri
        self.title = title
        self.start = start
        self.duration = duration
    }

    /// The discovered duration, else the playlist file's.
    public var knownDuration: MediaTime? { info?.duration ?? duration }
    /// The media's own title tag once discovered, else the playlist file's title.
    public var knownTitle: String? { info?.title ?? title }
}

/// What happens at the end of an item (mpv's `loop-file` / `loop-playlist`).
public enum LoopMode: String, Sendable, Hashable, Codable, CaseIterable {
    /// Stop after the last item.
    case none
    /// Repeat the current item when it ends (skipping still moves on).
    case one
    /// Go back to the first item after the last (a new shuffle pass when shuffling).
    case all
}

/// Why the current item of a queue changed (``QueueEvent/itemChanged(index:id:reason:)``, published
/// only when another item was current before: a queue's first item comes without one).
public enum ItemChangeReason: String, Sendable, Hashable, Codable {
    /// The previous item played to its end.
    case ended
    /// The user moved on (next, previous, jump, or the current item was removed).
    case skipped
    /// The previous item failed; the queue went on to this one.
    case error
}

/// A queue operation that could not be done; the queue is unchanged.
public enum QueueError: Error, Sendable, Hashable, CustomStringConvertible {
    /// An index outside `0..<count` (or `0...count` for an insertion).
    case indexOutOfRange(index: Int, count: Int)

    /// One line for the user, e.g. "no item 99: the queue has 3 items (0–2)".
    public var description: String {
        switch self {
        case .indexOutOfRange(let index, let count):
            if count == 0 { return "no item \(index): the queue is empty" }
            return "no item \(index): the queue has \(count) item\(count == 1 ? "" : "s") (0–\(count - 1))"
        }
    }
}

/// A copy of a queue's state for getters and events (any thread): the queue's section of the
/// player's snapshot (`Player.queue`, `snapshot.features[QueueSnapshot.self]`).
public struct QueueSnapshot: FeatureSection, Codable {
    /// The section's name in the snapshot's JSON.
    public static let key = "queue"
    /// The items in list order, each with its ``QueueItem/id``.
    public var items: [QueueItem]
    /// The current item's index, nil when none.
    public var currentIndex: Int?
    /// The loop mode.
    public var loop: LoopMode
    /// Whether the play order is shuffled.
    public var shuffled: Bool
    /// Whether items follow each other gaplessly (playbin's `about-to-finish`).
    public var gapless: Bool
    /// The index `Player.advanceToNextItem()` would play, nil when it would stop.
    public var nextIndex: Int?
    /// The index `Player.returnToPreviousItem()` would play, nil when it would do nothing.
    public var previousIndex: Int?
    /// Where the current item is in the play order (0-based): ``currentIndex`` in list order,
    /// its step in the current pass while ``shuffled``; nil when there is no current item.
    public var playPosition: Int?

    /// The sum of the items' known durations (``QueueItem/knownDuration``); zero when none is known.
    public var totalDuration: MediaTime { items.reduce(.zero) { $0 + ($1.knownDuration ?? .zero) } }
    /// How many items have a known duration (``totalDuration`` covers those).
    public var knownDurationCount: Int { items.reduce(0) { $0 + ($1.knownDuration == nil ? 0 : 1) } }

    /// Creates the value.
    public init(items: [QueueItem] = [], currentIndex: Int? = nil, loop: LoopMode = .none, shuffled: Bool = false, gapless: Bool = true,
                nextIndex: Int? = nil, previousIndex: Int? = nil) {
        self.items = items
        self.currentIndex = currentIndex
        self.loop = loop
        self.shuffled = shuffled
        self.gapless = gapless
        self.nextIndex = nextIndex
        self.previousIndex = previousIndex
    }
}
