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
/// - ``read()`` decodes entry by entry: an entry of the wrong shape is left out and counted
///   (``Contents/dropped``), the others are kept. It tells a missing file (no entries) from an
///   unreadable one, a corrupt one (not such a document at all) and one of a newer format
///   version (a newer program's: the caller must leave it alone); what to do then is the
///   caller's policy. ``keepAside()`` keeps a copy of a damaged document without ever replacing
///   an earlier copy.
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

    /// What ``read()`` found in a document of this version.
    package struct Contents: Sendable, Equatable {
        /// The entries that decoded, in the document's order.
        package var entries: [Entry] = []
        /// Elements of the document's `entries` array that are not an `Entry` (a wrong type, a
        /// missing field): left out of ``entries``.
        package var dropped = 0
    }

    /// Why ``read()`` found no document to use.
    package enum ReadFailure: Error, Sendable, Equatable {
        /// The file is there but cannot be read (or is over the size limit).
        case unreadable(AtomicFile.Failure)
        /// The file is not a document of this shape: `reason` says what is wrong with it.
        case corrupt(reason: String)
        /// The document says it is of format `version`, newer than ``JSONFileStore/version``:
        /// another (newer) program's file, which must be left as it is.
        case newerVersion(Int)
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

    /// The entries on disk, decoded one by one (``decode(_:)``); a missing file has none.
    package func read() throws(ReadFailure) -> Contents {
        let bytes: [UInt8]
        do { bytes = try AtomicFile.read(path, limit: sizeLimit) } catch {
            if error.isMissing { return Contents() }
            throw .unreadable(error)
        }
        return try Self.decode(bytes)
    }

    /// `bytes` read as a document: a JSON object whose `version` is ``version`` and whose
    /// `entries` is an array. Each element of the array is decoded on its own; those that are not
    /// an `Entry` are counted in ``Contents/dropped``. Pure; any input gives a result or a
    /// ``ReadFailure`` (never a crash).
    package static func decode(_ bytes: [UInt8]) throws(ReadFailure) -> Contents {
        let document: LenientFile
        do { document = try JSONDecoder().decode(LenientFile.self, from: Data(bytes)) } catch {
            throw .corrupt(reason: bytes.isEmpty ? "the file is empty" : "not a JSON object")
        }
        switch document.version {
        case .some(version): break
        case .some(let newer) where newer > version: throw .newerVersion(newer)
        case .some(let other): throw .corrupt(reason: "format version \(other)")
        case nil: throw .corrupt(reason: "no format version")
        }
        guard let elements = document.entries else { throw .corrupt(reason: "no list of entries") }
        let entries = elements.compactMap(\.entry)
        return Contents(entries: entries, dropped: elements.count - entries.count)
    }

    /// Keeps a copy of the document as `<path>.corrupt`, or `<path>.corrupt-2`, `-3`, … when that
    /// is taken (a hard link: atomic, never replaces an earlier copy, costs no space); the copy's
    /// path, nil when none could be made. Call with the exclusive lock held.
    package func keepAside() -> String? {
        for number in 1...1000 {
            let aside = path + ".corrupt" + (number == 1 ? "" : "-\(number)")
            if link(path, aside) == 0 { return aside }
            guard errno == EEXIST else { return nil }
        }
        return nil
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

    /// The document as ``decode(_:)`` reads it: only the outer shape must hold.
    private struct LenientFile: Decodable {
        var version: Int?
        var entries: [LenientEntry]?

        enum CodingKeys: String, CodingKey { case version, entries }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            version = try? container.decode(Int.self, forKey: .version)
            entries = try? container.decode([LenientEntry].self, forKey: .entries)
        }
    }

    /// One element of `entries`: the `Entry`, or nil when it is not one (never throws, so one bad
    /// element does not spoil the array).
    private struct LenientEntry: Decodable {
        var entry: Entry?
        init(from decoder: any Decoder) throws { entry = try? Entry(from: decoder) }
    }

    /// Removes `<name>.XXXXXX` temporaries of the document (``AtomicFile/isTemporary(_:of:)``).
    private func removeStaleTemporaries() {
        let name = path.lastIndex(of: "/").map { String(path[path.index(after: $0)...]) } ?? path
        for entry in DirectoryNames.list(directory) ?? [] where AtomicFile.isTemporary(entry, of: name) {
            unlink(directory + "/" + entry)
        }
    }
}
