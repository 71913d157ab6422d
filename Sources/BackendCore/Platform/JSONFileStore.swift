#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import DirectoryWalk
import Glibc

/// One small versioned JSON document, `{"entries": [...], "version": 1}`, in one file that
/// several processes share: the one store under the resume state and the media cache's index.
///
/// - Changes run under an `flock` on a lock file (``withLock(_:_:)``), so processes take turns;
///   under the exclusive lock the temporaries a killed writer left are removed first (only
///   writers holding the lock make them, so every one found then is dead).
/// - ``write(_:)`` is atomic and durable (``AtomicFile``: `g_file_set_contents_full`): a crash or
///   `kill -9` at any point leaves the old document or the new one.
/// - ``read()`` tells a missing file (no entries) from an unreadable or a corrupt one; what to do
///   then is the caller's policy.
///
/// **Thread:** any; every call does blocking file I/O (keep it off real-time threads).
package struct JSONFileStore<Entry: Codable & Equatable & Sendable>: Sendable {
    /// The file's shape.
    package struct File: Codable {
        /// The format version; only ``JSONFileStore/version`` is read.
        package var version = JSONFileStore.version
        /// The entries.
        package var entries: [Entry] = []
        /// A document of the current version.
        package init(entries: [Entry] = []) { self.entries = entries }
    }

    /// The one format version written and read.
    package static var version: Int { 1 }

    /// Why ``read()`` found no document.
    package enum ReadFailure: Error, Sendable {
        /// The file is there but cannot be read (or is over the size limit).
        case unreadable(AtomicFile.Failure)
        /// The file is not JSON of this shape and version.
        case corrupt
    }

    /// How ``withLock(_:_:)`` locks.
    package enum LockMode: Sendable {
        /// `LOCK_EX` on the lock file, created (mode 0600) when missing; stale temporaries are removed.
        case exclusive
        /// `LOCK_SH` on the lock file; a missing lock file is not created.
        case shared
    }

    /// The document's path.
    package let path: String
    /// The lock file's path.
    package let lockPath: String
    /// The most bytes ``read()`` accepts.
    package let sizeLimit: Int

    /// A store of `path`, locked through `lockPath`, read up to `sizeLimit` bytes. Touches nothing.
    package init(path: String, lockPath: String, sizeLimit: Int) {
        self.path = path
        self.lockPath = lockPath
        self.sizeLimit = sizeLimit
    }

    /// The directory holding the document.
    package var directory: String {
        path.lastIndex(of: "/").map { $0 == path.startIndex ? "/" : String(path[..<$0]) } ?? "."
    }

    /// The entries on disk; a missing file has none.
    package func read() throws(ReadFailure) -> [Entry] {
        let bytes: [UInt8]
        do { bytes = try AtomicFile.read(path, limit: sizeLimit) } catch {
            if error.isMissing { return [] }
            throw .unreadable(error)
        }
        guard let file = try? JSONDecoder().decode(File.self, from: Data(bytes)), file.version == Self.version else {
            throw .corrupt
        }
        return file.entries
    }

    /// Replaces the document with `entries` (pretty-printed, keys sorted, mode 0600), atomically.
    package func write(_ entries: [Entry]) throws(AtomicFile.Failure) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(File(entries: entries)) else {
            throw AtomicFile.Failure(call: "encode", path: path, code: EINVAL)
        }
        try AtomicFile.write(Array(data) + [0x0A], to: path, mode: 0o600)
    }

    /// Runs `body` holding an `flock` of `mode` on the lock file (`EINTR` retried). `body` gets nil
    /// when the lock is held, else the `open` errno of the lock file and runs unlocked: the caller
    /// decides whether to go on.
    package func withLock<T, E: Error>(_ mode: LockMode, _ body: (_ openError: Int32?) throws(E) -> T) throws(E) -> T {
        let lock = mode == .exclusive ? open(lockPath, O_RDWR | O_CREAT | O_CLOEXEC, 0o600) : open(lockPath, O_RDONLY | O_CLOEXEC)
        guard lock >= 0 else { return try body(errno) }
        while flock(lock, mode == .exclusive ? LOCK_EX : LOCK_SH) != 0 && errno == EINTR {}
        defer { flock(lock, LOCK_UN); close(lock) }
        if mode == .exclusive { removeStaleTemporaries() }
        return try body(nil)
    }

    /// Removes `<name>.XXXXXX` temporaries of the document (``AtomicFile/isTemporary(_:of:)``).
    private func removeStaleTemporaries() {
        let name = path.lastIndex(of: "/").map { String(path[path.index(after: $0)...]) } ?? path
        for entry in DirectoryNames.list(directory) ?? [] where AtomicFile.isTemporary(entry, of: name) {
            unlink(directory + "/" + entry)
        }
    }
}
