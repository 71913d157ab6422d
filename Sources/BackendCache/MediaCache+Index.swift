#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import BackendCore
import CGStreamer
import GLibSupport
import Glibc

/// The index on disk: the locked read-repair-change-write cycle, reading it entry by entry, and
/// saying what a damaged one lost.
extension MediaCache {
    /// Lock, read, repair, change, write (only when changed), then `commit` — see the type's
    /// description. `commit` runs after the index was written, still under the lock; when it
    /// changes the entries (its step failed), the index is written again. Without `create`, a
    /// missing directory is left missing and reads as an empty cache. Returns the line saying
    /// what a damaged index lost (``repair()``).
    @discardableResult
    func update(create: Bool = true, change: (inout [Entry]) -> Void,
                commit: ((inout [Entry]) -> Void)? = nil) throws(Problem) -> String? {
        if !create && !(g_file_test(directory, G_FILE_TEST_EXISTS) != 0) {
            var entries: [Entry] = []
            change(&entries)
            return nil
        }
        do { try AtomicFile.makeDirectories(directory) } catch {
            throw Problem(description: "cannot create the cache directory: \(error.description)")
        }
        return try index.withLock(.exclusive) { openError throws(Problem) -> String? in
            if let openError { throw Problem(description: "cannot open the cache lock: \(String(cString: strerror(openError)))") }
            let read = try readIndex()
            var entries = CacheRepair(cache: self).repair(read.entries)
            let notice = read.damage.map { describe($0, keptAside: index.keepAside(), listed: entries) }
            change(&entries)
            if entries != read.entries || read.damage != nil { try write(entries) }
            guard let commit else { return notice }
            let written = entries
            commit(&entries)
            if entries != written { try write(entries) }
            return notice
        }
    }

    /// Writes the index (under the exclusive lock).
    func write(_ entries: [Entry]) throws(Problem) {
        do throws(AtomicFile.Failure) { try index.write(entries) } catch {
            throw Problem(description: "cannot write the cache index: \(error.description)")
        }
    }

    /// What was wrong with the index as read (``readIndex()``).
    enum IndexDamage: Equatable {
        /// `dropped` of `total` entries did not read.
        case dropped(Int, of: Int)
        /// The document as a whole is not an index (`reason`).
        case corrupt(String)
    }

    /// The index as read: the entries that read, and what was wrong.
    struct IndexRead {
        var entries: [Entry]
        var damage: IndexDamage?
    }

    /// The index on disk (`JSONFileStore.read()`: entry by entry; missing reads as empty).
    /// Throws when it cannot be used at all: unreadable, or of a newer format version (another
    /// gstplay's cache: left alone).
    func readIndex() throws(Problem) -> IndexRead {
        do {
            let contents = try index.read()
            let damage = contents.dropped > 0 ? IndexDamage.dropped(contents.dropped, of: contents.dropped + contents.entries.count) : nil
            return IndexRead(entries: contents.entries, damage: damage)
        } catch {
            switch error {
            case .unreadable(let failure):
                throw Problem(description: "cannot read the cache index: \(failure.description)")
            case .newerVersion(let version):
                throw Problem(description: "the cache index '\(indexPath)' is of format version \(version), newer than this gstplay reads "
                              + "(\(JSONFileStore<Entry>.version)): the cache is not used, and left as it is")
            case .corrupt(let reason):
                return IndexRead(entries: [], damage: .corrupt(reason))
            }
        }
    }

    /// The one line saying what a damaged index lost: which entries, where the copy of the old
    /// index is, and that the files no longer listed are kept (``clear()`` deletes them).
    func describe(_ damage: IndexDamage, keptAside: String?, listed: [Entry]) -> String {
        let what: String
        switch damage {
        case .dropped(let dropped, let total):
            what = "\(dropped) of \(total) entries of the cache index '\(indexPath)' could not be read and were dropped"
        case .corrupt(let reason):
            what = "the cache index '\(indexPath)' is corrupt (\(reason)): its entries were dropped"
        }
        let copy = keptAside.map { " (a copy is in '\($0)')" } ?? ""
        let unlisted = CacheRepair.unlistedFiles(in: directory, listed: Set(listed.map(\.key))).count
        let files = unlisted == 0 ? "" : "; \(unlisted) cached file(s) no longer listed are kept (`gstplay cache clear` deletes them)"
        return what + copy + files
    }
}
