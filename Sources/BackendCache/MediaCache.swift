#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import BackendCore
import CGStreamer
import GLibSupport
import Glibc

/// A local cache of **complete** downloads (seed 001): a played http(s) file is kept and played
/// from disk next time, with no network request; an incomplete one is never kept.
///
/// Layout of ``directory`` (the caller names it; `gstplay` uses `$XDG_CACHE_HOME/gstplay/media`):
/// - `<sha256 of the URI>`: a complete media file, moved in with `rename` (atomic);
/// - `index.json`: URI, size, ETag, Last-Modified, stored and last-used times of each file,
///   rewritten through `JSONFileStore` (`g_file_set_contents_full`: temp file, fsync, rename):
///   a `kill -9` at any moment leaves the old index or the new one;
/// - `partial/<pid>-<sha256>-XXXXXX`: downloads under way (``partialTemplate(for:)``);
/// - `lock`: every change runs under an exclusive `flock` on it, so processes sharing the
///   cache take turns.
///
/// Every locked operation first repairs what a killed process can leave: partial files and index
/// temporaries of dead processes, entries whose file is missing or has another size. Over
/// ``sizeLimit`` the least recently used files are evicted.
///
/// The index is read entry by entry: an entry that does not read (a wrong type, a missing field)
/// is dropped, the others are kept, and a copy of the damaged index is kept aside
/// (`index.json.corrupt`, `-2`, …); one line says so (``repair()``). A file is deleted only when
/// the index proves it is the cache's (an entry whose key is the SHA-256 of its URI): files of
/// dropped entries, and any other file, stay until ``clear()``. An index of a newer format
/// version is left alone with every file: each operation then fails with a ``Problem`` saying so.
///
/// **Thread:** any; every call does its own file I/O under the lock (keep it off real-time threads).
public struct MediaCache: Sendable {
    /// One cached file.
    public struct Entry: Codable, Sendable, Hashable {
        /// The URI it was downloaded from.
        public var uri: String
        /// SHA-256 of the URI (hex): the file's name in the cache directory.
        public var key: String
        /// Size in bytes (equal to the server's Content-Length when stored).
        public var size: Int64
        /// The response's `ETag`, if it had one.
        public var etag: String?
        /// The response's `Last-Modified`, if it had one.
        public var lastModified: String?
        /// When it was stored, seconds since 1970.
        public var storedAt: Double
        /// When it was last played or stored, seconds since 1970 (the LRU order).
        public var lastUsed: Double
        /// When the server last confirmed it (a 304 to a conditional request), seconds since
        /// 1970; nil: never since it was stored (``storedAt`` counts then).
        public var validatedAt: Double?
        /// The server's `Cache-Control` on the last response for it (`max-age`, `no-cache`).
        public var control: CacheControl?

        /// When the copy was last known to match the server.
        public var checkedAt: Double { validatedAt ?? storedAt }
    }

    /// A failed cache operation, as one line for the user.
    public struct Problem: Error, Sendable, Hashable, CustomStringConvertible {
        /// e.g. "incomplete download: 1000 of 2000 bytes".
        public var description: String
    }

    /// The index format (versioned).
    typealias IndexFile = JSONFileStore<Entry>.File

    /// The cache directory.
    public let directory: String
    /// The most bytes of media kept; older files are evicted beyond it.
    public let sizeLimit: Int64
    /// 2 GiB.
    public static let defaultSizeLimit: Int64 = 2 << 30
    /// Seconds a cached copy is played without asking the server; then one conditional request
    /// revalidates it (a server's `max-age` shortens this, `no-cache` makes it 0).
    public let revalidateInterval: Double
    /// One hour.
    public static let defaultRevalidateInterval: Double = 3600
    /// Never ask the server: a cached copy is always played as it is (`--cache=offline`).
    public let offline: Bool

    /// A cache in `directory` holding at most `sizeLimit` bytes. A relative `directory` is
    /// resolved against the working directory now (`g_canonicalize_filename`). Nothing is touched
    /// on disk until the first operation. `revalidateInterval` (seconds) and `offline`: see the
    /// properties.
    public init(directory: String, sizeLimit: Int64 = MediaCache.defaultSizeLimit,
                revalidateInterval: Double = MediaCache.defaultRevalidateInterval, offline: Bool = false) {
        self.directory = MediaCache.absolute(directory)
        self.sizeLimit = max(0, sizeLimit)
        self.revalidateInterval = max(0, revalidateInterval)
        self.offline = offline
    }

    /// True when the cached `entry` must be revalidated before it is played now (``CacheFreshness``).
    public func needsValidation(_ entry: Entry) -> Bool {
        CacheFreshness.needsValidation(entry, now: Self.now(), interval: revalidateInterval, offline: offline)
    }

    /// Records that the server confirmed `uri` (a 304) now, with the response's `Cache-Control`.
    public func markValidated(_ uri: String, control: CacheControl?) throws(Problem) {
        try update { entries in
            guard let index = entries.firstIndex(where: { $0.uri == uri }) else { return }
            entries[index].validatedAt = Self.now()
            entries[index].control = control
        }
    }

    /// `path` made absolute against the working directory, `.` and `..` removed
    /// (`g_canonicalize_filename`; symbolic links are kept).
    public static func absolute(_ path: String) -> String {
        String(takingGLibString: g_canonicalize_filename(path, nil)) ?? path
    }

    /// The SHA-256 of `uri` in lowercase hex (GLib's `g_compute_checksum_for_string`).
    public static func key(for uri: String) -> String {
        String(takingGLibString: g_compute_checksum_for_string(G_CHECKSUM_SHA256, uri, -1)) ?? ""
    }

    /// Where the file of `entry` is. The cache itself only touches files through
    /// `ownedPath(of:)`, which refuses a key that is not a SHA-256 in hex.
    public func path(of entry: Entry) -> String { directory + "/" + entry.key }

    var indexPath: String { directory + "/index.json" }
    /// The index, locked through `lock` (`JSONFileStore`).
    var index: JSONFileStore<Entry> { JSONFileStore(path: indexPath, lockPath: directory + "/lock", sizeLimit: 64 << 20) }
    var partialDirectory: String { directory + "/partial" }

    // MARK: Operations

    /// The complete cached file for `uri`, nil when there is none; marks it used (LRU).
    public func lookup(_ uri: String) throws(Problem) -> Entry? {
        var found: Entry?
        try update { entries in
            guard let index = entries.firstIndex(where: { $0.uri == uri }) else { return }
            entries[index].lastUsed = Self.now()
            found = entries[index]
        }
        return found
    }

    /// The complete cached file for `uri` without changing anything: a shared `flock`, the
    /// index read, the file's size checked. For the player's start-up path; ``touch(_:)`` then
    /// records the use (an index write with fsyncs) off that path. A damaged index is repaired
    /// first (``repair()``); nil when the index cannot be used.
    public func find(_ uri: String) -> Entry? { lookUpForPlay(uri).entry }

    /// What the player's lookup of `uri` found (``lookUpForPlay(_:)``).
    struct PlayLookup {
        /// The complete cached file, nil for none.
        var entry: Entry?
        /// The line saying what a repair of a damaged index dropped (``repair()``).
        var notice: String?
        /// Why the cache cannot be used now (an unreadable index, one of a newer version).
        var unusable: Problem?
    }

    /// ``find(_:)`` with what it met on the way: the repair's notice, or why the cache is unusable.
    func lookUpForPlay(_ uri: String) -> PlayLookup {
        var notice: String?
        // Without a lock file (no writer ever locked) the index is read all the same: writes are atomic.
        let read = index.withLock(.shared) { _ in Result { () throws(Problem) in try readIndex() } }
        switch read {
        case .failure(let problem): return PlayLookup(unusable: problem)
        case .success(let contents) where contents.damage != nil:
            do { notice = try repair() } catch { return PlayLookup(unusable: error) }
            return PlayLookup(entry: completeEntry(for: uri, in: (try? readIndex())?.entries ?? []), notice: notice)
        case .success(let contents):
            return PlayLookup(entry: completeEntry(for: uri, in: contents.entries))
        }
    }

    /// The entry of `uri` in `entries` when its file is there with its size.
    private func completeEntry(for uri: String, in entries: [Entry]) -> Entry? {
        guard let entry = entries.first(where: { $0.uri == uri && $0.key == Self.key(for: uri) }) else { return nil }
        var info = stat()
        return stat(path(of: entry), &info) == 0 && Int64(info.st_size) == entry.size ? entry : nil
    }

    /// Repairs the index now (every locked operation does it first): drops the entries that do
    /// not read and those whose file is missing or has another size. Returns one line saying what
    /// a damaged index lost (nil when it read cleanly); throws when the index cannot be used
    /// (unreadable, a newer format version: then nothing is touched). A missing directory is
    /// left missing.
    @discardableResult
    public func repair() throws(Problem) -> String? { try update(create: false) { _ in } }

    /// Marks `uri` as used now (the LRU order); nothing when it is not cached.
    public func touch(_ uri: String) throws(Problem) { _ = try lookup(uri) }

    /// A `mkstemp` template for a download of `uri` under `partial/` (created if missing), named
    /// after this process so a later operation can remove it once the process is gone. Throws
    /// when no file can be made there (a read-only cache): one is made and removed to find out.
    public func partialTemplate(for uri: String) throws(Problem) -> String {
        do { try AtomicFile.makeDirectories(partialDirectory) } catch {
            throw Problem(description: "cannot create the cache directory: \(error.description)")
        }
        var probe = Array((partialDirectory + "/\(getpid())-probe-XXXXXX").utf8CString)
        let fd = probe.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else {
            throw Problem(description: "cannot write downloads into '\(partialDirectory)': \(String(cString: strerror(errno)))")
        }
        close(fd)
        probe.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) }
        return partialDirectory + "/\(getpid())-\(Self.key(for: uri))-XXXXXX"
    }

    /// Moves the downloaded `file` into the cache as `uri` when its size is `expectedSize`
    /// (the Content-Length), then evicts least recently used files beyond ``sizeLimit``. On any
    /// refusal the file is deleted and a ``Problem`` says why. Returns the stored entry.
    @discardableResult
    public func store(uri: String, file: String, expectedSize: Int64, etag: String? = nil,
                      lastModified: String? = nil, control: CacheControl? = nil) throws(Problem) -> Entry {
        var info = stat()
        guard stat(file, &info) == 0 else {
            throw Problem(description: "the download '\(file)' is gone: \(String(cString: strerror(errno)))")
        }
        guard expectedSize > 0, Int64(info.st_size) == expectedSize else {
            unlink(file)
            throw Problem(description: "incomplete download: \(info.st_size) of \(expectedSize) bytes")
        }
        guard control?.noStore != true else {
            unlink(file)
            throw Problem(description: "the server said Cache-Control: no-store")
        }
        guard expectedSize <= sizeLimit else {
            unlink(file)
            throw Problem(description: "\(expectedSize) bytes is more than the cache limit of \(sizeLimit) bytes")
        }
        let now = Self.now()
        let entry = Entry(uri: uri, key: Self.key(for: uri), size: expectedSize, etag: etag, lastModified: lastModified,
                          storedAt: now, lastUsed: now, control: control)
        var failure: Problem?
        // The index lists the file before it is moved in: the cache never holds a file the index
        // does not prove is its own. A kill in between leaves an entry without its file (or with
        // the old file of the URI, of another size), which the next operation drops.
        try update(change: { entries in
            entries.removeAll { $0.uri == uri }
            entries.append(entry)
            self.evict(&entries, keeping: entry.key)
        }, commit: { entries in
            guard rename(file, self.path(of: entry)) != 0 else { return }
            failure = Problem(description: "cannot move the download into the cache: \(String(cString: strerror(errno)))")
            unlink(file)
            entries.removeAll { $0.uri == uri }
        })
        if let failure { throw failure }
        return entry
    }

    /// Every cached file, least recently used first.
    public func entries() throws(Problem) -> [Entry] {
        var result: [Entry] = []
        try update(create: false) { result = $0 }
        return result.sorted { $0.lastUsed < $1.lastUsed }
    }

    /// Forgets `uri` and deletes its file; returns the entry removed, nil when it was not cached.
    @discardableResult
    public func remove(_ uri: String) throws(Problem) -> Entry? {
        var removed: Entry?
        try update(create: false) { entries in
            for entry in entries where entry.uri == uri { self.deleteFile(of: entry); removed = entry }
            entries.removeAll { $0.uri == uri }
        }
        return removed
    }

    /// Deletes every cached file (downloads under way in live processes are left alone): the
    /// listed ones, and the media files a damaged index no longer lists (SHA-256-named files).
    public func clear() throws(Problem) {
        try update(create: false) { entries in
            for entry in entries { self.deleteFile(of: entry) }
            entries.removeAll()
            for name in CacheRepair.unlistedFiles(in: self.directory, listed: []) { unlink(self.directory + "/" + name) }
        }
    }

    /// Total bytes of the cached files.
    public func totalSize() throws(Problem) -> Int64 { try entries().reduce(0) { $0 + $1.size } }

    /// Drops least recently used entries (and their files) until the total fits ``sizeLimit``;
    /// `keeping` is never dropped.
    func evict(_ entries: inout [Entry], keeping key: String) {
        var total = entries.reduce(Int64(0)) { $0 + $1.size }
        for victim in entries.sorted(by: { $0.lastUsed < $1.lastUsed }) where total > sizeLimit && victim.key != key {
            deleteFile(of: victim)
            entries.removeAll { $0.key == victim.key }
            total -= victim.size
        }
    }

    static func now() -> Double {
        var spec = timespec()
        clock_gettime(CLOCK_REALTIME, &spec)
        return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
    }
}
