import BackendCore
import CGStreamer
import Glibc

/// Where each item was left (mpv's `watch-later`): one small JSON file, `<directory>/resume.json`,
/// in a directory the caller chooses (gstplay: `g_get_user_state_dir()/gstplay`).
///
/// - Items are keyed by URI, plus size and modification time for local files (a changed file
///   does not resume).
/// - Every save re-reads the file, changes one entry and writes it atomically and durably
///   (`JSONFileStore`: `g_file_set_contents_full` under an `flock` on `resume.json.lock`): a
///   crash or `kill -9` leaves the old file.
/// - Items with less than 5 % left are forgotten instead of stored.
/// - A corrupt file is moved aside (`resume.json.corrupt`), an unreadable one is left alone, a
///   read-only directory fails the save: each gives a ``Problem`` (a warning for the user) and
///   no resume, never a crash and never the loss of the other entries.
///
/// **Thread:** any; each call does its own file I/O (keep it off real-time threads).
public struct ResumeStore: Sendable {
    /// One remembered position.
    public struct Entry: Codable, Sendable, Hashable {
        /// The item's URI.
        public var uri: String
        /// File size in bytes (local files only).
        public var size: Int64?
        /// File modification time, seconds since 1970 (local files only).
        public var mtime: Int64?
        /// Where playback was, in seconds.
        public var position: Double
        /// When it was saved, seconds since 1970.
        public var savedAt: Int64
    }

    /// The file format (versioned).
    typealias StateFile = JSONFileStore<Entry>.File

    /// A problem with the state file, reported as one warning line.
    public struct Problem: Error, Sendable, Hashable, CustomStringConvertible {
        /// What went wrong, e.g. "resume state '/x/resume.json' is corrupt (moved to …): not resuming".
        public var description: String
    }

    /// The state file.
    public var path: String { file.path }
    private let file: JSONFileStore<Entry>

    /// A store in `directory` (created with its parents, mode 0700, at the first save).
    public init(directory: String) {
        let path = directory + "/resume.json"
        file = JSONFileStore(path: path, lockPath: path + ".lock", sizeLimit: 16 << 20)
    }

    /// The position to resume `uri` at, nil when none is stored (or the file changed since).
    public func position(for uri: String) throws(Problem) -> MediaTime? {
        let key = ResumeStore.fileKey(uri)
        let entries = try readEntries()
        guard let entry = entries.first(where: { $0.uri == uri }) else { return nil }
        guard entry.size == key.size, entry.mtime == key.mtime else { return nil }
        return MediaTime(seconds: entry.position)
    }

    /// Stores `position` for `uri`; with less than 5 % of `duration` left the entry is removed instead.
    public func save(uri: String, position: MediaTime, duration: MediaTime?) throws(Problem) {
        let finished = duration.map { $0 > .zero && (($0 - position).seconds < $0.seconds * 0.05) } ?? false
        let key = ResumeStore.fileKey(uri)
        try update { entries in
            entries.removeAll { $0.uri == uri }
            guard !finished, position > .zero else { return }
            entries.append(Entry(uri: uri, size: key.size, mtime: key.mtime, position: position.seconds, savedAt: Int64(time(nil))))
        }
    }

    /// Forgets `uri`.
    public func forget(uri: String) throws(Problem) {
        try update { $0.removeAll { $0.uri == uri } }
    }

    /// Forgets everything (removes the file; a missing file is fine).
    public func forgetAll() throws(Problem) {
        if unlink(path) != 0 && errno != ENOENT {
            throw Problem(description: "cannot remove resume state '\(path)': \(String(cString: strerror(errno)))")
        }
    }

    /// Every stored entry (for tests and tools).
    public func entries() throws(Problem) -> [Entry] { try readEntries() }

    // MARK: File work

    /// Read, change, write atomically, under the exclusive lock (unlocked when the lock file
    /// cannot be opened: the atomic write still keeps the file whole).
    private func update(_ change: (inout [Entry]) -> Void) throws(Problem) {
        do { try AtomicFile.makeDirectories(file.directory) } catch {
            throw Problem(description: "cannot create the resume state directory: \(error.description)")
        }
        try file.withLock(.exclusive) { _ throws(Problem) in
            var entries = try readEntries()
            change(&entries)
            do throws(AtomicFile.Failure) { try file.write(entries) } catch {
                throw Problem(description: "cannot save the resume state: \(error.description)")
            }
        }
    }

    /// The entries on disk; a missing file is empty. A corrupt file is moved aside to
    /// `<path>.corrupt` (so later saves start clean without destroying it) and reported.
    private func readEntries() throws(Problem) -> [Entry] {
        do { return try file.read() } catch {
            switch error {
            case .unreadable(let failure):
                throw Problem(description: "cannot read resume state: \(failure.description); not resuming")
            case .corrupt:
                let aside = path + ".corrupt"
                let moved = rename(path, aside) == 0
                throw Problem(description: "resume state '\(path)' is corrupt" + (moved ? " (moved to '\(aside)')" : "") + "; not resuming")
            }
        }
    }

    /// Size and mtime of a local file URI (`FileURI`: `g_filename_from_uri`; `stat`); nils for
    /// other URIs or a missing file.
    static func fileKey(_ uri: String) -> (size: Int64?, mtime: Int64?) {
        guard let path = FileURI.path(of: uri) else { return (nil, nil) }
        var info = stat()
        guard stat(path, &info) == 0 else { return (nil, nil) }
        return (Int64(info.st_size), Int64(info.st_mtim.tv_sec))
    }
}
