#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import BackendCore
import CGStreamer
import GLibSupport
import Glibc

/// Reading and writing playlist files: `.m3u`/`.m3u8` (extended M3U with `#EXTINF` titles)
/// and `.pls`. Pure file and text work, no GStreamer pipeline; any thread.
///
/// - Relative entries resolve against the playlist file's directory.
/// - An HLS media or master playlist (a line starting with an `#EXT-X-` tag) is **not** a list of items: it is
///   one stream for GStreamer (``Contents/stream(_:)``).
/// - Entries that are playlists themselves are expanded in place; a playlist that includes
///   itself (directly or through others) is not expanded again (a warning in ``Contents/items(_:warnings:)``).
public enum PlaylistFile {
    /// What a playlist file turned out to hold.
    public enum Contents: Sendable, Hashable {
        /// Items to queue, plus notes about entries that were skipped (one line each).
        case items([QueueItem], warnings: [String])
        /// An HLS playlist: hand this URI to `playbin` as one stream.
        case stream(String)
    }

    /// Why a playlist file could not be used (one line for the user).
    public struct LoadError: Error, Sendable, Hashable, CustomStringConvertible {
        /// The playlist file.
        public var path: String
        /// What is wrong with it.
        public var reason: String
        /// "playlist 'x.m3u': reason".
        public var description: String { "playlist '\(path)': \(reason)" }
    }

    /// The file extensions read as playlists.
    public static let extensions: Set<String> = ["m3u", "m3u8", "pls"]

    /// True when `path` names a playlist by its extension (case-insensitive).
    public static func isPlaylist(_ path: String) -> Bool {
        guard !MediaLocation.looksLikeURI(path) || URIScheme.isFile(path) else { return false }
        return extensions.contains(fileExtension(of: path))
    }

    /// Reads the playlist at `path` (a path or a `file://` URI).
    /// Throws ``LoadError`` for an unreadable, binary or empty playlist.
    public static func load(_ path: String) throws(LoadError) -> Contents {
        var visited: Set<String> = []
        var warnings: [String] = []
        let absolute = absolutePath(path)
        let items = try expand(absolute, visited: &visited, warnings: &warnings)
        if case .stream(let uri)? = items.stream { return .stream(uri) }
        guard !items.list.isEmpty else { throw LoadError(path: path, reason: "the playlist has no entries") }
        return .items(items.list, warnings: warnings)
    }

    /// Writes `items` as an extended M3U file (`#EXTM3U`, `#EXTINF:<seconds>,title` before titled
    /// entries, `-1` seconds when the length is unknown; `file://` URIs written as absolute paths), atomically (temp file, fsync, rename); an
    /// existing target that is not a regular file (a device, a FIFO, a link…) is refused.
    public static func saveM3U(_ items: [QueueItem], to path: String) throws(LoadError) {
        var text = "#EXTM3U\n"
        for item in items {
            let seconds = item.knownDuration.map { String(Int64(($0.seconds).rounded())) } ?? "-1"
            if let title = item.title?.replacingControlCharacters() { text += "#EXTINF:\(seconds),\(title)\n" }
            // A path is written as it is only when it reads back the same: no control character
            // (the file would be refused as binary), no `#`, no surrounding spaces.
            let path = fileURIPath(item.uri).flatMap { path in
                path.unicodeScalars.contains { ($0.value < 0x20 && $0 != "\t") || $0 == "#" } || path.trimmingSurroundingWhitespace() != path ? nil : path
            }
            text += (path ?? item.uri) + "\n"
        }
        do {
            try AtomicFile.requireReplaceable(absolutePath(path))
            try AtomicFile.write(Array(text.utf8), to: absolutePath(path))
        } catch {
            throw LoadError(path: path, reason: "cannot write: \(error.description)")
        }
    }

    // MARK: Parsing

    private struct Expansion { var list: [QueueItem] = []; var stream: Contents? }

    private static func expand(_ path: String, visited: inout Set<String>, warnings: inout [String]) throws(LoadError) -> Expansion {
        let key = canonical(path)
        guard visited.insert(key).inserted else {
            warnings.append("playlist '\(path)' includes itself: not expanded again")
            return Expansion()
        }
        let text = try readText(path)
        let directory = parentDirectory(of: path)
        if fileExtension(of: path) != "pls", text.split(whereSeparator: \.isNewline).contains(where: { String($0).trimmingSurroundingWhitespace().hasPrefix("#EXT-X-") }) {
            return Expansion(stream: .stream(fileURI(path)))
        }
        let entries = fileExtension(of: path) == "pls" || text.hasPrefix("[playlist]")
            ? try plsEntries(text, path: path) : m3uEntries(text)
        var result = Expansion()
        for entry in entries {
            let location = resolve(entry.location, against: directory)
            if let nestedPath = location.path, isPlaylist(nestedPath) {
                do {
                    let nested = try expand(nestedPath, visited: &visited, warnings: &warnings)
                    if case .stream(let uri)? = nested.stream {
                        result.list.append(QueueItem(uri: uri, title: entry.title, duration: entry.duration))
                    }
                    result.list += nested.list
                } catch {
                    warnings.append(error.description)
                }
                continue
            }
            result.list.append(QueueItem(uri: location.uri, title: entry.title, duration: entry.duration))
        }
        return result
    }

    /// One entry of a playlist file: where it is, and the title and length the file gives it.
    struct Entry: Sendable, Hashable {
        var location: String
        var title: String?
        /// `#EXTINF` seconds or `.pls` `LengthN`; nil when absent, unparsable or not positive.
        var duration: MediaTime?
    }

    /// Extended M3U entries as (location, title) pairs (``m3uEntries(_:)`` without lengths).
    static func parseM3U(_ text: String) -> [(location: String, title: String?)] { m3uEntries(text).map { ($0.location, $0.title) } }

    /// PLS entries as (location, title) pairs (``plsEntries(_:path:)`` without lengths).
    static func parsePLS(_ text: String, path: String) throws(LoadError) -> [(location: String, title: String?)] {
        try plsEntries(text, path: path).map { ($0.location, $0.title) }
    }

    /// Extended M3U: `#EXTINF:<seconds>,<title>` names the next entry and gives its length
    /// (`-1` or `0`: unknown); other `#` lines are comments.
    static func m3uEntries(_ text: String) -> [Entry] {
        var entries: [Entry] = []
        var pending = Entry(location: "")
        for raw in text.split(omittingEmptySubsequences: true, whereSeparator: { $0 == "\n" || $0 == "\r\n" || $0 == "\r" }) {
            let line = String(raw).trimmingSurroundingWhitespace()
            if line.isEmpty { continue }
            if line.hasPrefix("#") {
                if line.hasPrefix("#EXTINF:"), let comma = line.firstIndex(of: ",") {
                    let title = String(line[line.index(after: comma)...]).replacingControlCharacters().trimmingSurroundingWhitespace()
                    pending.title = title.isEmpty ? nil : title
                    // `#EXTINF:<seconds> key="value"…,title`: the length is the first word.
                    let head = line[line.index(line.startIndex, offsetBy: 8)..<comma]
                    pending.duration = length(head.split(separator: " ").first.map(String.init) ?? "")
                }
                continue
            }
            pending.location = line
            entries.append(pending)
            pending = Entry(location: "")
        }
        return entries
    }

    /// PLS: a `[playlist]` section with `FileN=`, `TitleN=`, `LengthN=` (ordered by N, a number
    /// from 1 written in digits only: `File-5=` or `File+5=` is no entry; a length of `-1` means
    /// unknown).
    static func plsEntries(_ text: String, path: String) throws(LoadError) -> [Entry] {
        var files: [Int: String] = [:], titles: [Int: String] = [:], lengths: [Int: MediaTime] = [:]
        var sawHeader = false
        for raw in text.split(whereSeparator: { $0 == "\n" || $0 == "\r\n" || $0 == "\r" }) {
            let line = String(raw).trimmingSurroundingWhitespace()
            if line.lowercased() == "[playlist]" { sawHeader = true; continue }
            guard let equals = line.firstIndex(of: "=") else { continue }
            let key = line[..<equals].lowercased(), value = String(line[line.index(after: equals)...]).trimmingSurroundingWhitespace()
            if key.hasPrefix("file"), let n = entryNumber(key.dropFirst(4)), !value.isEmpty { files[n] = value }
            let title = value.replacingControlCharacters().trimmingSurroundingWhitespace()
            if key.hasPrefix("title"), let n = entryNumber(key.dropFirst(5)), !title.isEmpty { titles[n] = title }
            if key.hasPrefix("length"), let n = entryNumber(key.dropFirst(6)), let length = length(value) { lengths[n] = length }
        }
        guard sawHeader else { throw LoadError(path: path, reason: "not a PLS playlist (no [playlist] section)") }
        return files.keys.sorted().map { Entry(location: files[$0]!, title: titles[$0], duration: lengths[$0]) }
    }

    /// The N of a PLS key: ASCII digits only, at least 1 (no sign, no blanks).
    private static func entryNumber(_ text: Substring) -> Int? {
        guard !text.isEmpty, text.utf8.allSatisfy({ (48...57).contains($0) }), let n = Int(text), n >= 1 else { return nil }
        return n
    }

    /// A length in (possibly fractional) seconds; nil unless finite, positive and under a year.
    private static func length(_ text: String) -> MediaTime? {
        guard let seconds = Double(text), seconds.isFinite, seconds > 0, seconds < 366 * 86_400 else { return nil }
        return MediaTime(seconds: seconds)
    }

    // MARK: Files and locations

    /// The file's text: UTF-8 (a BOM is dropped) or, failing that, Latin-1. Throws for an
    /// unreadable file or binary data (``looksBinary(_:)``).
    private static func readText(_ path: String) throws(LoadError) -> String {
        let bytes: [UInt8]
        do { bytes = try AtomicFile.read(path, limit: 8 << 20) } catch {
            throw LoadError(path: path, reason: error.description)
        }
        guard !looksBinary(bytes) else { throw LoadError(path: path, reason: "not a playlist (binary data)") }
        var body = bytes[...]
        if body.starts(with: [0xEF, 0xBB, 0xBF]) { body = body.dropFirst(3) }
        if let text = String(validating: body, as: UTF8.self) { return text }
        return String(body.map { Character(Unicode.Scalar($0)) })
    }

    /// True for binary data: a NUL byte, or C0 control bytes other than tab, LF and CR making up more
    /// than 1 in 20 bytes (and more than 4 of them). A few controls in a text file (an escape
    /// sequence in one title) do not make it binary: titles read them as spaces, as `saveM3U`
    /// writes them, so a saved queue loads back the same.
    static func looksBinary(_ bytes: [UInt8]) -> Bool {
        if bytes.contains(0) { return true }
        let controls = bytes.lazy.filter { $0 < 0x20 && $0 != 0x09 && $0 != 0x0A && $0 != 0x0D }.count
        return controls > 4 && controls * 20 > bytes.count
    }

    /// An entry as a URI (kept when it has a scheme) or as an absolute path and its `file://` URI.
    private static func resolve(_ entry: String, against directory: String) -> (uri: String, path: String?) {
        // A `file://` entry is queued in the same canonical form as a path entry (written as it
        // is, `file:///a#b.mp3` would reach playbin with `#b.mp3` as a fragment).
        if URIScheme.isFile(entry), let path = fileURIPath(entry).map(normalize) { return (fileURI(path), path) }
        if MediaLocation.looksLikeURI(entry) { return (entry, nil) }
        let path = entry.hasPrefix("/") ? entry : directory + "/" + entry
        let normal = normalize(path)
        return (fileURI(normal), normal)
    }

    /// `file://` URI for an absolute path (percent-encoding what RFC 3986 needs), the path as it
    /// is (`g_filename_to_uri`; not `MediaLocation.uri(for:)`, which trims what a user typed and
    /// so turned `/..\u{A0}` into `/..`).
    static func fileURI(_ path: String) -> String {
        String(takingGLibString: g_filename_to_uri(path, nil, nil)) ?? "file://" + path
    }

    /// The absolute path of a `file://` URI, percent-decoded by GLib (``FileURI/path(of:)``,
    /// `g_filename_from_uri`); nil for other URIs and for ones GLib refuses (a `%00` in the path).
    static func fileURIPath(_ uri: String) -> String? { FileURI.path(of: uri) }

    static func absolutePath(_ path: String) -> String {
        if let filePath = fileURIPath(path) { return filePath }
        if path.hasPrefix("/") { return normalize(path) }
        return normalize(FileManager.default.currentDirectoryPath + "/" + path)
    }

    /// Removes `.` and `..` components and repeated slashes.
    static func normalize(_ path: String) -> String {
        var parts: [Substring] = []
        for part in path.split(separator: "/") {
            if part == "." { continue }
            if part == ".." { _ = parts.popLast(); continue }
            parts.append(part)
        }
        return "/" + parts.joined(separator: "/")
    }

    private static func canonical(_ path: String) -> String {
        guard let resolved = realpath(path, nil) else { return normalize(path) }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    private static func parentDirectory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/"), slash != path.startIndex else { return "/" }
        return String(path[..<slash])
    }

    private static func fileExtension(of path: String) -> String {
        let name = path.split(separator: "/").last ?? ""
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return "" }
        return name[name.index(after: dot)...].lowercased()
    }
}

private extension String {
    /// The characters that would end the line or make `load` refuse the file as binary (C0
    /// controls but tab, which includes CR and LF) as spaces; everything else as it is.
    func replacingControlCharacters() -> String {
        String(String.UnicodeScalarView(unicodeScalars.map { $0.value < 0x20 && $0 != "\t" ? " " : $0 }))
    }
}
