import BackendCore

/// How an ``MPRISFeature`` presents the player on the bus (the root interface's properties, the
/// bus name). **Thread:** a value; read on the loop thread.
public struct MPRISConfiguration: Sendable, Hashable {
    /// The application's name in the bus name `org.mpris.MediaPlayer2.<name>.instance<pid>`
    /// (a bus name element: letters, digits, `_`).
    public var applicationName = "gstplay"
    /// `Identity`: the name shells show.
    public var identity = "gstplay"
    /// `DesktopEntry`: the desktop file's name without `.desktop`, nil for none.
    public var desktopEntry: String? = "gstplay"
    /// `SupportedUriSchemes`.
    public var supportedURISchemes = ["file", "http", "https", "rtsp", "rtmp", "udp", "srt"]
    /// `SupportedMimeTypes` (the desktop entry's list, say).
    public var supportedMIMETypes: [String] = []
    /// Where the pictures behind `mpris:artUrl` are written (a directory the app names, created
    /// when needed: the CLI uses `$XDG_CACHE_HOME/gstplay/mpris`); nil: no `mpris:artUrl`.
    public var artDirectory: String?
    /// The bus to use (a D-Bus address); nil: the session bus, when there is one
    /// (``MPRISFeature/sessionBusAvailable``).
    public var busAddress: String?

    /// The defaults.
    public init() {}
}

/// The play queue as MPRIS sees it (`LoopStatus`, `Shuffle`, `CanGoNext`, `TrackList`). An app
/// gives one to ``MPRISFeature`` to back these with its queue: the umbrella `Backend` adapts
/// BackendQueue's `QueueFeature` (a feature target imports no other feature target).
///
/// **Thread:** every method is called on the player's loop thread, from the MPRIS feature's own
/// queued work (never from inside another feature's call), so it may act on a feature at once.
public protocol MPRISQueueControl {
    /// The queue as `snapshot` has it (the feature sections), nil when there is no queue.
    func state(in snapshot: PlayerSnapshot) -> MPRISQueueState?
    /// Plays the next item (MPRIS `Next`).
    func next()
    /// Plays the previous item (MPRIS `Previous`).
    func previous()
    /// Plays the item with this id (TrackList `GoTo`).
    func goTo(itemID: Int)
    /// Sets what happens at the end of an item (MPRIS `LoopStatus`).
    func setLoop(_ status: MPRISLoopStatus)
    /// Turns shuffling on or off (MPRIS `Shuffle`).
    func setShuffle(_ on: Bool)
    /// Plays `uri` now (MPRIS `OpenUri`), in the queue.
    func open(uri: String)
}

/// MPRIS `LoopStatus`.
public enum MPRISLoopStatus: String, Sendable, Hashable {
    /// No repeat.
    case none = "None"
    /// Repeat the current track.
    case track = "Track"
    /// Repeat the whole list.
    case playlist = "Playlist"
}

/// The queue's state for MPRIS (``MPRISQueueControl/state(in:)``).
public struct MPRISQueueState: Sendable, Hashable {
    /// One item: its stable id, its URI and its title when known.
    public struct Item: Sendable, Hashable {
        /// The item's id (stable while it is in the queue).
        public var id: Int
        /// Its URI.
        public var uri: String
        /// Its title, nil when unknown.
        public var title: String?
        /// Creates the value.
        public init(id: Int, uri: String, title: String?) { self.id = id; self.uri = uri; self.title = title }
    }
    /// The items in list order.
    public var items: [Item]
    /// The current item's index, nil when none.
    public var currentIndex: Int?
    /// The loop status.
    public var loop: MPRISLoopStatus
    /// Shuffled.
    public var shuffled: Bool
    /// `Next` would play something.
    public var hasNext: Bool
    /// `Previous` would play something.
    public var hasPrevious: Bool

    /// Creates the value.
    public init(items: [Item], currentIndex: Int?, loop: MPRISLoopStatus, shuffled: Bool, hasNext: Bool, hasPrevious: Bool) {
        self.items = items
        self.currentIndex = currentIndex
        self.loop = loop
        self.shuffled = shuffled
        self.hasNext = hasNext
        self.hasPrevious = hasPrevious
    }

    /// The current item, nil when none.
    public var current: Item? { currentIndex.flatMap { items.indices.contains($0) ? items[$0] : nil } }
}
