import DirectoryWalk
import Glibc

/// What ``MediaCache`` does under its lock before each operation: removes what a killed process
/// left behind, so every listed entry has its complete file.
///
/// - `partial/<pid>-…` downloads and `index.json.tmp-<pid>` files of processes that are gone
///   (`kill(pid, 0)` → `ESRCH`) are deleted;
/// - entries whose file is missing or has another size are dropped, and so are entries whose key
///   is not the SHA-256 of their URI;
/// - a file is deleted only when an entry proves it is the cache's (its key is the SHA-256 of its
///   URI: a 64-hex name in the cache directory). Files the index does not list are left alone
///   (the cache lists a file before moving it in, so it never leaves one unlisted itself;
///   ``MediaCache/clear()`` deletes them).
///
/// **Thread:** any; called with the cache lock held.
struct CacheRepair {
    let cache: MediaCache

    /// The entries that are still backed by their complete file; cleans the directory.
    func repair(_ entries: [MediaCache.Entry]) -> [MediaCache.Entry] {
        removeDeadPartials()
        var kept: [MediaCache.Entry] = []
        var mismatched: [MediaCache.Entry] = []
        for entry in entries where !kept.contains(where: { $0.key == entry.key }) {
            // Only an entry whose key is its URI's SHA-256 names a file of the cache.
            // A key that is not a SHA-256 names no file of ours: the entry is dropped, nothing deleted.
            guard entry.key == MediaCache.key(for: entry.uri), let path = cache.ownedPath(of: entry) else { continue }
            var info = stat()
            if stat(path, &info) == 0, Int64(info.st_size) == entry.size {
                kept.append(entry)
            } else {
                mismatched.append(entry)
            }
        }
        // A file no entry of its key describes (cut, or of another size) is not served again.
        for entry in mismatched where !kept.contains(where: { $0.key == entry.key }) { cache.deleteFile(of: entry) }
        for name in Self.names(in: cache.directory) {
            if let pid = Self.pid(after: "index.json.tmp-", in: name), Self.isDead(pid) {
                unlink(cache.directory + "/" + name)
            }
        }
        return kept
    }

    /// The media files (SHA-256-named regular files, symbolic links not followed) in `directory`
    /// whose key is not in `listed`: what a damaged index no longer lists.
    static func unlistedFiles(in directory: String, listed: Set<String>) -> [String] {
        names(in: directory).filter { name in
            var info = stat()
            return isKey(name) && !listed.contains(name) && lstat(directory + "/" + name, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG
        }
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
