import DirectoryWalk
import Glibc

/// What ``MediaCache`` does under its lock before each operation: removes what a killed process
/// left behind, so the directory only ever holds complete, listed files.
///
/// - `partial/<pid>-…` downloads and `index.json.tmp-<pid>` files of processes that are gone
///   (`kill(pid, 0)` → `ESRCH`) are deleted;
/// - media files the index does not list (a kill between the move and the index write) are deleted;
/// - entries whose file is missing or has another size are dropped.
///
/// **Thread:** any; called with the cache lock held.
struct CacheRepair {
    let cache: MediaCache

    /// The entries that are still backed by their complete file; cleans the directory.
    func repair(_ entries: [MediaCache.Entry]) -> [MediaCache.Entry] {
        removeDeadPartials()
        var kept: [MediaCache.Entry] = []
        for entry in entries where !kept.contains(where: { $0.key == entry.key }) {
            // A key that is not a SHA-256 names no file of ours: the entry is dropped, nothing deleted.
            guard let path = cache.ownedPath(of: entry) else { continue }
            var info = stat()
            if stat(path, &info) == 0, Int64(info.st_size) == entry.size, entry.key == MediaCache.key(for: entry.uri) {
                kept.append(entry)
            } else {
                unlink(path)
            }
        }
        let listed = Set(kept.map(\.key))
        for name in Self.names(in: cache.directory) {
            if Self.isKey(name), !listed.contains(name) {
                unlink(cache.directory + "/" + name)
            } else if let pid = Self.pid(after: "index.json.tmp-", in: name), Self.isDead(pid) {
                unlink(cache.directory + "/" + name)
            }
        }
        return kept
    }

    /// Deletes `partial/<pid>-…` files of dead processes.
    private func removeDeadPartials() {
        for name in Self.names(in: cache.partialDirectory) {
            guard let dash = name.firstIndex(of: "-"), let pid = pid_t(name[..<dash]), Self.isDead(pid) else { continue }
            unlink(cache.partialDirectory + "/" + name)
        }
    }

    /// True for a 64-character lowercase hex name (a SHA-256 key).
    static func isKey(_ name: String) -> Bool {
        name.utf8.count == 64 && name.utf8.allSatisfy { (48...57).contains($0) || (97...102).contains($0) }
    }

    private static func pid(after prefix: String, in name: String) -> pid_t? {
        name.hasPrefix(prefix) ? pid_t(name.dropFirst(prefix.count)) : nil
    }

    private static func isDead(_ pid: pid_t) -> Bool { pid > 0 && kill(pid, 0) != 0 && errno == ESRCH }

    /// The names in `directory` without `.` and `..` (``DirectoryNames``: GLib's `GDir`); empty when unreadable.
    static func names(in directory: String) -> [String] { DirectoryNames.list(directory) ?? [] }
}
