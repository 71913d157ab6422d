import Backend
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Locations as a person typed them (paths, URIs, directories, playlist files), made ready for
/// the player's queue (`Player/setQueue(_:startingAt:)`): the queue items, and each item's URI →
/// the location as typed (for a ``LocationNames`` table, so `status` and error lines show a path
/// as a path). Built once; the queue is the player's from then on. A plain value; any thread
/// (the expansions read the file system).
public struct QueueSetup: Equatable, Sendable {
    /// One entry after directory and playlist-file expansion: the location as typed (a playlist
    /// file's entries: their URIs) and its `#EXTINF`/`TitleN=` title.
    public struct Entry: Equatable, Sendable {
        /// The path or URI as typed.
        public var location: String
        /// The title a playlist file gave it, if any.
        public var title: String?

        /// An entry for `location`, with `title` if a playlist file named it.
        public init(location: String, title: String? = nil) {
            self.location = location
            self.title = title
        }
    }

    /// A location that is not a usable URI or path.
    public struct Failure: Equatable, Sendable {
        /// The location as typed.
        public var location: String
        /// Why it cannot be used (`MediaLocation/uri(for:)`'s error).
        public var message: String
    }

    /// The queue items, in order.
    public private(set) var items: [QueueItem] = []
    /// URI → the location as typed (the first entry with that URI).
    public private(set) var names: [String: String] = [:]
    /// Entries that could not be made into a URI.
    public private(set) var failures: [Failure] = []
    /// The arguments the entries came from (before directory expansion), to name them when they
    /// expand to nothing.
    public let arguments: [String]

    /// Resolves `entries` to URIs (`MediaLocation/uri(for:)`); `arguments` are what was typed
    /// (by default the entries' locations).
    public init(entries: [Entry], arguments: [String]? = nil) {
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

    /// `entries` with directories replaced by their files (``directoryFiles(_:)``), resolved.
    public static func expanding(_ entries: [Entry], arguments: [String]) -> QueueSetup {
        let expanded = entries.flatMap { entry in
            directoryFiles(entry.location).map { Entry(location: $0, title: $0 == entry.location ? entry.title : nil) }
        }
        return QueueSetup(entries: expanded, arguments: arguments)
    }

    /// Whether nothing is left to play.
    public var isEmpty: Bool { items.isEmpty }
}

extension QueueSetup {
    /// One location expanded: a directory becomes its regular files (not hidden), sorted by name;
    /// anything else (files, URIs) is returned as typed.
    public static func directoryFiles(_ location: String) -> [String] {
        guard !MediaLocation.looksLikeURI(location), PathText.isDirectory(location),
              let names = try? FileManager.default.contentsOfDirectory(atPath: location)
        else { return [location] }
        let base = URL(fileURLWithPath: location)
        return names.filter { !$0.hasPrefix(".") }.sorted().compactMap { name in
            let path = base.appendingPathComponent(name).path
            return PathText.exists(path) && !PathText.isDirectory(path) ? path : nil
        }
    }

    /// `locations` with each local `.m3u`/`.m3u8`/`.pls` file replaced by its entries (relative
    /// entries resolved against the playlist's directory, nested playlists expanded once, an HLS
    /// playlist kept as one stream; `PlaylistFile`), with their titles, and how many playlists
    /// could not be used. A bad playlist (unreadable, binary, empty) is one `error: …` line
    /// through `report` and is dropped; notes about skipped entries are `warning: …` lines.
    public static func expandingPlaylists(_ locations: [String], report: (String) -> Void) -> (entries: [Entry], failed: Int) {
        var entries: [Entry] = []
        var failed = 0
        for location in locations {
            guard PlaylistFile.isPlaylist(location), !PathText.isDirectory(location) else {
                entries.append(Entry(location: location))
                continue
            }
            do {
                switch try PlaylistFile.load(location) {
                case .stream(let uri):
                    entries.append(Entry(location: uri))
                case .items(let items, let warnings):
                    for warning in warnings { report("warning: \(warning)") }
                    entries += items.map { Entry(location: $0.uri, title: $0.title) }
                }
            } catch {
                report("error: \(error.description)")
                failed += 1
            }
        }
        return (entries, failed)
    }

    /// The extensions ``autoloadingFolder(_:)`` takes as media (video and audio; not subtitles,
    /// playlists or pictures).
    public static let mediaExtensions: Set<String> = [
        "3gp", "aac", "ac3", "aiff", "alac", "ape", "asf", "avi", "dts", "f4v", "flac", "flv", "m2ts", "m4a", "m4v",
        "mka", "mkv", "mov", "mp2", "mp3", "mp4", "mpeg", "mpg", "mts", "oga", "ogg", "ogm", "ogv", "opus", "ts",
        "wav", "webm", "wma", "wmv", "wv",
    ]

    /// mpv's autoload: `entries` unchanged unless there is exactly one and it is a local file
    /// (not a URI, a directory or a playlist's entry); then that file followed by its folder's
    /// other media files after it in name order, then those before it (so the given file plays
    /// first, and `next` is the file after it in the folder). Reads one directory.
    public static func autoloadingFolder(_ entries: [Entry]) -> [Entry] {
        guard entries.count == 1, let entry = entries.first, entry.title == nil,
              !MediaLocation.looksLikeURI(entry.location), PathText.exists(entry.location),
              !PathText.isDirectory(entry.location) else { return entries }
        let path = entry.location
        let directory = PathText.deletingLastComponent(path)
        let name = PathText.lastComponent(path)
        let folder = directory.isEmpty ? "." : directory
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return entries }
        let media = names.filter { $0 != name && !$0.hasPrefix(".") && isMedia($0) }
            .filter { !PathText.isDirectory(PathText.appending($0, to: folder)) }.sorted()
        let after = media.filter { $0 > name }, before = media.filter { $0 < name }
        return [entry] + (after + before).map { Entry(location: directory.isEmpty ? $0 : PathText.appending($0, to: directory)) }
    }

    private static func isMedia(_ name: String) -> Bool {
        guard let dot = name.lastIndex(of: ".") else { return false }
        return mediaExtensions.contains(name[name.index(after: dot)...].lowercased())
    }
}
