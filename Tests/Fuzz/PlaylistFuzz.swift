// Fuzz target `playlist`: m3u/m3u8/pls playlist files (Sources/BackendQueue/PlaylistFile.swift):
// the line parsers, and the whole `load` path (binary check, UTF-8/Latin-1, entry resolution,
// nested playlists) on a file holding the input (`.pls` when it has a `[playlist]` line, else `.m3u`).
//
// Invariants:
//  1. Parsed entries are what a line can hold: non-empty, no line break, trimmed, not a comment;
//     titles non-empty and on one line.
//  2. `load` never crashes; what it queues has non-empty URIs.
//  3. Saving the loaded queue as M3U (`playlist save`) and loading that file gives the same
//     items (URIs and titles).

@testable import BackendCore
@testable import BackendQueue
import Backend
import Foundation

/// The `playlist` fuzz target (invariants in the header). Writes only its scratch directory.
enum PlaylistFuzz {
    /// This process's scratch directory (one per process: tests may run in parallel), under
    /// `TMPDIR` (`make fuzz` points it into .build-fuzz). Made by each run, removed by
    /// ``removeScratchDirectory()``.
    private static let directory = NSTemporaryDirectory() + "/gstplay-fuzz-playlist-\(getpid())"

    /// Removes the scratch directory (the corpus replay calls it when done).
    static func removeScratchDirectory() {
        try? FileManager.default.removeItem(atPath: directory)
    }

    static func run(_ bytes: [UInt8]) throws(InvariantViolation) {
        let text = String(decoding: bytes, as: UTF8.self)
        for entry in PlaylistFile.parseM3U(text) { try checkEntry(entry, format: "m3u") }
        if let entries = try? PlaylistFile.parsePLS(text, path: "fuzz.pls") {
            for entry in entries { try checkEntry(entry, format: "pls") }
        }

        let name = text.lowercased().contains("[playlist]") ? "fuzz.pls" : "fuzz.m3u"
        let path = directory + "/" + name, saved = directory + "/saved.m3u"
        mkdir(directory, 0o700)
        unlink(saved)
        guard FileManager.default.createFile(atPath: path, contents: Data(bytes)) else {
            throw InvariantViolation(description: "cannot write \(path)")
        }
        defer { unlink(path); unlink(saved) }
        guard case .items(let items, _)? = try? PlaylistFile.load(path) else { return }
        for item in items { try check(!item.uri.isEmpty, "\(name): an item with an empty URI") }
        do { try PlaylistFile.saveM3U(items, to: saved) } catch {
            throw InvariantViolation(description: "saving the loaded items failed: \(error)")
        }
        let again: PlaylistFile.Contents
        do { again = try PlaylistFile.load(saved) } catch {
            throw InvariantViolation(description: "the saved playlist does not load: \(error) (items \(items))")
        }
        guard case .items(let reloaded, _) = again else {
            throw InvariantViolation(description: "the saved playlist loads as \(again), not as the items \(items)")
        }
        try check(reloaded.map(\.uri) == items.map(\.uri) && reloaded.map(\.title) == items.map(\.title),
                  "save + load changed the queue: \(items.map { ($0.uri, $0.title) }) → \(reloaded.map { ($0.uri, $0.title) })")
    }

    private static func checkEntry(_ entry: (location: String, title: String?), format: String) throws(InvariantViolation) {
        let location = entry.location
        try check(!location.isEmpty, "\(format): an empty entry")
        try check(!location.contains(where: { $0 == "\n" || $0 == "\r" || $0 == "\r\n" }),
                  "\(format): an entry spans lines: \(location.debugDescription)")
        try check(location.trimmingWhitespace() == location, "\(format): an entry is not trimmed: \(location.debugDescription)")
        if format == "m3u" { try check(!location.hasPrefix("#"), "m3u: a comment became an entry: \(location.debugDescription)") }
        if let title = entry.title {
            try check(!title.isEmpty, "\(format): an empty title")
            try check(!title.contains(where: { $0 == "\n" || $0 == "\r" || $0 == "\r\n" }), "\(format): a title spans lines: \(title.debugDescription)")
        }
    }
}
