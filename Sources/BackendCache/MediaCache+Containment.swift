import Glibc

/// The one way a cache entry becomes a file name: only a key that is a SHA-256 in lowercase hex
/// (``CacheRepair/isKey(_:)``) is joined to the directory. The index is a file anyone with the
/// user's rights may edit; a key such as `../../victim` would otherwise name a file outside the
/// cache, which the repair step deletes on the next cache use (even `gstplay cache list`).
///
/// **Thread:** any (pure, plus one `unlink`).
extension MediaCache {
    /// Where the file of `entry` is, nil when its key is not a 64-character hex SHA-256: then it
    /// names no file of this cache and nothing is read or deleted for it.
    func ownedPath(of entry: Entry) -> String? {
        CacheRepair.isKey(entry.key) ? directory + "/" + entry.key : nil
    }

    /// Deletes the file of `entry` when its key names one in the cache directory (``ownedPath(of:)``);
    /// any other key deletes nothing.
    func deleteFile(of entry: Entry) {
        guard let path = ownedPath(of: entry) else { return }
        unlink(path)
    }
}
