import Backend

/// The list of things to play and where we are in it. A plain value owned by the
/// ``PlaybackController`` (used on its queue only).
struct Playlist: Equatable, Sendable {
    /// The locations as the user gave them (after directory expansion).
    private(set) var items: [String]
    /// The current item.
    private(set) var index: Int
    /// `--loop`: the list wraps around at both ends.
    let loops: Bool
    /// The command-line arguments the items came from (before directory expansion), to name
    /// them when they expand to nothing.
    let arguments: [String]

    init(items: [String], loops: Bool = false, arguments: [String]? = nil) {
        self.items = items
        self.index = 0
        self.loops = loops
        self.arguments = arguments ?? items
    }

    /// Expands the command-line arguments: directories become their files, sorted
    /// (``ArgumentExpansion/expand(_:)``); everything else is kept as typed.
    static func expanding(_ arguments: [String], loops: Bool) -> Playlist {
        Playlist(items: arguments.flatMap(ArgumentExpansion.expand), loops: loops, arguments: arguments)
    }

    var isEmpty: Bool { items.isEmpty }
    var count: Int { items.count }
    /// The current location, nil for an empty list.
    var current: String? { items.indices.contains(index) ? items[index] : nil }
    /// True on the last item (never true with ``loops``).
    var isAtEnd: Bool { !loops && index >= items.count - 1 }

    /// Moves to the next item; wraps when looping. Returns false (and stays) at the end.
    mutating func advance() -> Bool {
        guard !items.isEmpty else { return false }
        if index + 1 < items.count { index += 1; return true }
        guard loops else { return false }
        index = 0
        return true
    }

    /// Whether ``advance()`` would wrap around to the first item.
    var nextWraps: Bool { loops && index + 1 >= items.count }

    /// Moves to the previous item; wraps when looping. Returns false (and stays) at the start.
    mutating func goBack() -> Bool {
        guard !items.isEmpty else { return false }
        if index > 0 { index -= 1; return true }
        guard loops else { return false }
        index = items.count - 1
        return true
    }

    /// Inserts `location` after the current item and makes it current; returns its index.
    @discardableResult
    mutating func insertAfterCurrent(_ location: String) -> Int {
        let position = items.isEmpty ? 0 : index + 1
        items.insert(location, at: position)
        index = position
        return position
    }
}
