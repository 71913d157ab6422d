import Backend

/// What the command line asks to play, made ready for the Backend's queue (``Player/setQueue(_:startingAt:)``).
/// Built once at start-up; the queue is the Backend's from then on — the CLI keeps no list of
/// its own, only ``names`` to show each item the way the user typed it. A plain value; any thread.
struct QueueSetup: Equatable, Sendable {
    /// One entry after directory and playlist-file expansion: the location as typed (a playlist
    /// file's entries: their URIs) and its `#EXTINF`/`TitleN=` title.
    struct Entry: Equatable, Sendable {
        var location: String
        var title: String?

        init(location: String, title: String? = nil) {
            self.location = location
            self.title = title
        }
    }

    /// A location that is not a usable URI or path (one `gstplay: error:` line at start-up).
    struct Failure: Equatable, Sendable {
        var location: String
        var message: String
    }

    /// The queue items, in order.
    private(set) var items: [QueueItem] = []
    /// URI → the location as the user typed it (for `Now playing`, error lines and `status`).
    private(set) var names: [String: String] = [:]
    /// Entries that could not be made into a URI.
    private(set) var failures: [Failure] = []
    /// The command-line arguments the entries came from (before directory expansion), to name
    /// them when they expand to nothing.
    let arguments: [String]

    /// Resolves `entries` to URIs (``MediaLocation/uri(for:)``); `arguments` are what the user typed.
    init(entries: [Entry], arguments: [String]? = nil) {
        self.arguments = arguments ?? entries.map(\.location)
        for entry in entries {
            do {
                let uri = try MediaLocation.uri(for: entry.location)
                items.append(QueueItem(uri: uri, title: entry.title))
                if names[uri] == nil { names[uri] = entry.location }
            } catch {
                failures.append(Failure(location: entry.location, message: error.message))
            }
        }
    }

    /// Expands the command-line arguments: directories become their files, sorted
    /// (``ArgumentExpansion/expand(_:)``); everything else is kept as typed.
    static func expanding(_ entries: [Entry], arguments: [String]) -> QueueSetup {
        let expanded = entries.flatMap { entry in
            ArgumentExpansion.expand(entry.location).map { Entry(location: $0, title: $0 == entry.location ? entry.title : nil) }
        }
        return QueueSetup(entries: expanded, arguments: arguments)
    }

    var isEmpty: Bool { items.isEmpty }
}
