// Fuzz targets `cache-index` and `resume`: the two JSON state files gstplay reads back from disk,
// the media cache's `index.json` (Sources/BackendCache/MediaCache.swift, CacheRepair.swift) and
// the resume state `resume.json` (Sources/BackendResume/ResumeStore.swift), both read through
// `JSONFileStore` (Sources/GLibSupport/JSONFileStore.swift). The input is the file's
// bytes, written into a scratch directory that is set up the same way for every run.
//
// Every input is decoded (``JSONFileStore/decode(_:)``: decoding the entries it gives, once
// re-encoded, gives them again with none dropped). The directory part runs for every input that
// decodes or names a newer version, and for one in 16 of the others (chosen by the bytes, so a
// replay is deterministic): those all take the same path (a copy aside, a new empty document),
// and the file work is what makes a run slow.
//
// Invariants of `cache-index` (a cache directory holding two media files, a file of another name,
// and a "victim" file next to the directory):
//  1. Reading never traps, whatever the bytes; `cache list`'s formatting of every entry neither.
//  2. No file outside the cache directory and no file whose name is not a 64-hex key is ever
//     deleted; a media file is deleted only when an entry of the input proved it is the cache's
//     (its key is the SHA-256 of its URI).
//  3. The entries that read, and whose file is there with their size, are kept.
//  4. An index of a newer format version is left byte for byte, with every file, and every
//     operation fails saying so.
//  5. A repair says what a damaged index lost once: the next one finds nothing to say; an earlier
//     copy of a damaged index is never replaced.
//
// Invariants of `resume` (a state directory holding an earlier `resume.json.corrupt`):
//  1. Reading never traps; the "resuming … at" text of any position neither.
//  2. A position handed out for resuming is finite, above 0 (a MediaTime, not only a Double) and at most 100 days.
//  3. Every entry that reads with a possible position survives a repair and a save of another URI.
//  4. A file of a newer format version is left byte for byte and saves fail.
//  5. A repair says what it dropped once; the earlier `resume.json.corrupt` is never replaced.

@testable import BackendCache
@testable import BackendCore
@testable import BackendResume
import Backend
import Foundation
@testable import GLibSupport
@testable import gstplay

/// The `cache-index` and `resume` fuzz targets (invariants in the header). Write only their
/// scratch directory (one per process, under `TMPDIR`), reset at every run.
enum StateFileFuzz {
    private static let root = NSTemporaryDirectory() + "/gstplay-fuzz-state-\(getpid())"

    /// Removes the scratch directory (the corpus replay calls it when done).
    static func removeScratchDirectory() {
        try? FileManager.default.removeItem(atPath: root)
    }

    // MARK: cache-index

    /// The media files every run starts with: URI and size.
    static let cachedFiles: [(uri: String, size: Int)] = [("http://x/a", 3), ("http://x/b", 5)]

    static func runCacheIndex(_ bytes: [UInt8]) throws(InvariantViolation) {
        let decoded = Result { () throws(JSONFileStore<MediaCache.Entry>.ReadFailure) in try JSONFileStore<MediaCache.Entry>.decode(bytes) }
        try checkRoundTrip(decoded)
        guard worthTheFiles(decoded, bytes) else { return }
        let directory = root + "/cache"
        let victim = root + "/victim", other = directory + "/keep.txt", earlierCopy = directory + "/index.json.corrupt"
        removeScratchDirectory()
        mkdir(root, 0o700)
        mkdir(directory, 0o700)
        for file in cachedFiles { try write([UInt8](repeating: 1, count: file.size), to: directory + "/" + MediaCache.key(for: file.uri)) }
        try write(Array("victim".utf8), to: victim)
        try write(Array("other".utf8), to: other)
        try write(Array("an earlier copy".utf8), to: earlierCopy)
        try write(bytes, to: directory + "/index.json")
        defer { removeScratchDirectory() }

        let cache = MediaCache(directory: directory)
        let lookup = cache.lookUpForPlay(cachedFiles[0].uri)
        let listed = Result { () throws(MediaCache.Problem) in try cache.entries() }
        let again = Result { () throws(MediaCache.Problem) in try cache.repair() }
        let now = MediaCache.now()
        for entry in (try? listed.get()) ?? [] {
            _ = CacheCommand.age(now - entry.storedAt) + CacheCommand.age(now - entry.lastUsed) + CacheCommand.bytes(entry.size)
        }

        try check(exists(victim) && exists(other), "a file that is not the cache's was deleted")
        try check(read(earlierCopy) == Array("an earlier copy".utf8), "the earlier copy of a damaged index was replaced")
        let proven = Set(((try? decoded.get())?.entries ?? []).filter { $0.key == MediaCache.key(for: $0.uri) }.map(\.key))
        for file in cachedFiles {
            let key = MediaCache.key(for: file.uri)
            try check(exists(directory + "/" + key) || proven.contains(key), "\(file.uri)'s file was deleted without an entry proving it")
        }
        switch decoded {
        case .failure(.newerVersion(let version)):
            try check(read(directory + "/index.json") == bytes, "an index of version \(version) was changed")
            try check(lookup.unusable != nil && lookup.entry == nil, "an index of version \(version) was used")
            guard case .failure(let problem) = listed, problem.description.contains("format version") else {
                throw InvariantViolation(description: "an index of version \(version) was read: \(listed)")
            }
        case .failure(.unreadable):
            throw InvariantViolation(description: "bytes in a file read as unreadable")
        case .failure(.corrupt), .success:
            guard case .success(let entries) = listed else { throw InvariantViolation(description: "a readable index failed: \(listed)") }
            for entry in (try? decoded.get())?.entries ?? [] where entry.key == MediaCache.key(for: entry.uri) {
                let file = cachedFiles.first { MediaCache.key(for: $0.uri) == entry.key }
                guard let file, Int64(file.size) == entry.size else { continue }
                try check(entries.contains { $0.uri == entry.uri }, "the good entry of \(entry.uri) was dropped")
            }
            try check((try? again.get()) == .some(nil), "the repair had something to say twice: \(again)")
        }
    }

    // MARK: resume

    static func runResume(_ bytes: [UInt8]) throws(InvariantViolation) {
        let decoded = Result { () throws(JSONFileStore<ResumeStore.Entry>.ReadFailure) in try JSONFileStore<ResumeStore.Entry>.decode(bytes) }
        try checkRoundTrip(decoded)
        guard worthTheFiles(decoded, bytes) else { return }
        let directory = root + "/state"
        let earlierCopy = directory + "/resume.json.corrupt"
        removeScratchDirectory()
        mkdir(root, 0o700)
        mkdir(directory, 0o700)
        try write(Array("an earlier copy".utf8), to: earlierCopy)
        try write(bytes, to: directory + "/resume.json")
        defer { removeScratchDirectory() }

        let store = ResumeStore(directory: directory)
        let uris = Set(((try? decoded.get())?.entries ?? []).map(\.uri)).prefix(8) + ["http://x/a"]
        for uri in uris {
            guard let position = try? store.position(for: uri) else { continue }
            try check(position.seconds.isFinite && position > .zero && position.seconds <= ResumeStore.maximumPosition,
                      "an impossible position is handed out: \(position.seconds) for \(uri)")
            _ = position.formatted(fractionDigits: 1)
        }
        let repaired = Result { () throws(ResumeStore.Problem) in try store.repair() }
        let saved = Result { () throws(ResumeStore.Problem) in
            try store.save(uri: "http://x/saved", position: MediaTime(seconds: 5), duration: MediaTime(seconds: 100))
        }
        let again = Result { () throws(ResumeStore.Problem) in try store.repair() }

        try check(read(earlierCopy) == Array("an earlier copy".utf8), "the earlier resume.json.corrupt was replaced")
        switch decoded {
        case .failure(.newerVersion(let version)):
            try check(read(store.path) == bytes, "a state file of version \(version) was changed")
            guard case .failure = saved else { throw InvariantViolation(description: "a save over a state file of version \(version) succeeded") }
        case .failure(.unreadable):
            throw InvariantViolation(description: "bytes in a file read as unreadable")
        case .failure(.corrupt), .success:
            guard case .success = repaired, case .success = saved else {
                throw InvariantViolation(description: "a readable state file failed: \(repaired), \(saved)")
            }
            let kept = (try? store.entries()) ?? []
            for entry in (try? decoded.get())?.entries ?? [] where entry.hasPossiblePosition && entry.uri != "http://x/saved" {
                try check(kept.contains { $0.uri == entry.uri }, "the good entry of \(entry.uri) was dropped")
            }
            try check(kept.contains { $0.uri == "http://x/saved" }, "the save was lost")
            try check((try? again.get()) == .some(nil), "the repair had something to say twice: \(again)")
        }
    }

    // MARK: Decoding

    /// The entries a document decoded to, written again and decoded, are the same, none dropped.
    private static func checkRoundTrip<Entry: Codable & Equatable & Sendable>(
        _ decoded: Result<JSONFileStore<Entry>.Contents, JSONFileStore<Entry>.ReadFailure>) throws(InvariantViolation) {
        guard case .success(let contents) = decoded else { return }
        guard let data = try? JSONEncoder().encode(JSONFileStore<Entry>.File(entries: contents.entries)) else {
            throw InvariantViolation(description: "decoded entries do not encode: \(contents.entries)")
        }
        let again = try? JSONFileStore<Entry>.decode([UInt8](data))
        try check(again == JSONFileStore<Entry>.Contents(entries: contents.entries), "decode(encode(entries)) differs: \(contents.entries)")
    }

    /// True when the directory part runs for `bytes`: every document that decodes or names a newer
    /// version, and one in 16 of the others (an FNV-1a hash of the bytes picks them).
    private static func worthTheFiles<Entry>(_ decoded: Result<JSONFileStore<Entry>.Contents, JSONFileStore<Entry>.ReadFailure>,
                                             _ bytes: [UInt8]) -> Bool {
        switch decoded {
        case .success, .failure(.newerVersion): return true
        case .failure(.corrupt), .failure(.unreadable): break
        }
        let hash = bytes.reduce(UInt32(2_166_136_261)) { ($0 ^ UInt32($1)) &* 16_777_619 }
        return hash % 16 == 0
    }

    // MARK: Files

    private static func write(_ bytes: [UInt8], to path: String) throws(InvariantViolation) {
        guard FileManager.default.createFile(atPath: path, contents: Data(bytes)) else {
            throw InvariantViolation(description: "cannot write \(path)")
        }
    }

    private static func read(_ path: String) -> [UInt8]? {
        FileManager.default.contents(atPath: path).map { [UInt8]($0) }
    }

    private static func exists(_ path: String) -> Bool { FileManager.default.fileExists(atPath: path) }
}
