import BackendCore
import CGStreamer
import GLibSupport
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
/// - The file is read entry by entry: an entry that does not read, or holds an impossible
///   position (under ``minimumPosition``, not finite, over ``maximumPosition``, at or past its
///   stored duration),
///   is dropped and the others are used. ``repair()`` (and any save) writes the good entries back
///   after keeping a copy of the damaged file aside (`resume.json.corrupt`, `-2`, `-3`, …: an
///   earlier copy is never replaced); ``repair()`` says what was dropped in one line.
/// - A file that is not a state file at all gives a ``Problem`` (no resume) until ``repair()``
///   or a save starts a new one (after keeping the copy). A file of a newer format version
///   (another gstplay's) is left alone and not used; an unreadable one is left alone; a
///   read-only directory fails the save. Each gives a ``Problem`` (a warning for the user),
///   never a crash and never the loss of the other entries.
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
        /// The item's duration when it was saved, in seconds (nil when it was not known, and in
        /// files written before it was kept).
        public var duration: Double?
        /// The choices saved with the position (nil in files written before they were kept).
        public var settings: ResumeSettings?

        /// Where each field is in the file.
        enum CodingKeys: String, CodingKey {
            case uri, size, mtime, position, savedAt, duration, settings
        }

        /// True when ``position`` can be resumed at: finite, at least ``ResumeStore/minimumPosition``,
        /// at most ``ResumeStore/maximumPosition``, and before ``duration`` when that is known.
        public var hasPossiblePosition: Bool {
            guard position.isFinite, position >= ResumeStore.minimumPosition, position <= ResumeStore.maximumPosition else { return false }
            guard let duration, duration.isFinite, duration > 0 else { return true }
            return position < duration
        }
    }

    /// The largest position kept or resumed at: 100 days, in seconds (a larger one is a damaged file).
    public static let maximumPosition: Double = 100 * 86400
    /// The smallest position kept or resumed at: 1 ms (below it is the start; a position of
    /// `2e-301` s passed a `> 0` check and became a `MediaTime` of 0).
    public static let minimumPosition: Double = 0.001

    /// The file format (versioned).
    typealias StateFile = JSONFileStore<Entry>.File

    /// A problem with the state file, reported as one warning line.
    public struct Problem: Error, Sendable, Hashable, CustomStringConvertible {
        /// What went wrong, e.g. "resume state '/x/resume.json' is corrupt (not a JSON object); not resuming".
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
    /// Entries that do not read are passed over (``repair()`` reports them).
    public func position(for uri: String) throws(Problem) -> MediaTime? {
        let key = ResumeStore.fileKey(uri)
        let entries = try readEntries().entries
        guard let entry = entries.first(where: { $0.uri == uri }) else { return nil }
        guard entry.size == key.size, entry.mtime == key.mtime else { return nil }
        return MediaTime(seconds: entry.position)
    }

    /// The entry stored for `uri` (its position and choices), nil when none is (or the file
    /// changed since). Entries that do not read are passed over (``repair()`` reports them).
    public func entry(for uri: String) throws(Problem) -> Entry? {
        let key = ResumeStore.fileKey(uri)
        guard let entry = try readEntries().entries.first(where: { $0.uri == uri }),
              entry.size == key.size, entry.mtime == key.mtime else { return nil }
        return entry
    }

    /// Stores `position` for `uri`, with the choices in `settings` (none saved when nil or
    /// empty); with less than 5 % of `duration` left the entry is removed instead.
    public func save(uri: String, position: MediaTime, duration: MediaTime?, settings: ResumeSettings? = nil) throws(Problem) {
        let finished = duration.map { $0 > .zero && (($0 - position).seconds < $0.seconds * 0.05) } ?? false
        let key = ResumeStore.fileKey(uri)
        try update { entries in
            entries.removeAll { $0.uri == uri }
            let entry = Entry(uri: uri, size: key.size, mtime: key.mtime, position: position.seconds, savedAt: Int64(time(nil)),
                              duration: duration.map(\.seconds), settings: settings.flatMap { $0.isEmpty ? nil : $0.possible() })
            guard !finished, entry.hasPossiblePosition else { return }
            entries.append(entry)
        }
    }

    /// Repairs a damaged file now: keeps a copy aside (`JSONFileStore.keepAside()`) and writes
    /// back the entries that read. Returns one line saying what was dropped and where the copy
    /// is, nil when the file read cleanly (or is missing). Throws when the file cannot be used
    /// (unreadable, a newer format version: left alone) or the repair cannot be written.
    @discardableResult
    public func repair() throws(Problem) -> String? {
        var notice: String?
        try update(damaged: { notice = $0 }, change: { _ in })
        return notice
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

    /// Every stored entry that reads (for tests and tools).
    public func entries() throws(Problem) -> [Entry] { try readEntries().entries }

    // MARK: File work

    /// Read, change, write atomically, under the exclusive lock (unlocked when the lock file
    /// cannot be opened: the atomic write still keeps the file whole). A damaged file is copied
    /// aside first (`JSONFileStore.keepAside()`); `damaged` hears what was dropped (one line).
    private func update(damaged: (String) -> Void = { _ in }, change: (inout [Entry]) -> Void) throws(Problem) {
        do { try AtomicFile.makeDirectories(file.directory) } catch {
            throw Problem(description: "cannot create the resume state directory: \(error.description)")
        }
        try file.withLock(.exclusive) { _ throws(Problem) in
            let read = try readEntries(startingOverWhenCorrupt: true)
            var entries = read.entries
            change(&entries)
            guard entries != read.entries || read.damage != nil else { return }
            let aside = read.damage != nil ? file.keepAside() : nil
            do throws(AtomicFile.Failure) { try file.write(entries) } catch {
                throw Problem(description: "cannot save the resume state: \(error.description)")
            }
            if let damage = read.damage {
                damaged(damage + (aside.map { " (a copy is in '\($0)')" } ?? " (no copy could be kept)"))
            }
        }
    }

    /// What ``readEntries(startingOverWhenCorrupt:)`` found: the usable entries and, for a
    /// damaged file, what was dropped.
    private struct Read {
        var entries: [Entry]
        var damage: String?
    }

    /// The usable entries on disk (``Entry/hasPossiblePosition``); a missing file is empty.
    /// Throws for an unreadable file, one of a newer format version, and — unless
    /// `startingOverWhenCorrupt` — one that is not a state file at all.
    private func readEntries(startingOverWhenCorrupt: Bool = false) throws(Problem) -> Read {
        let contents: JSONFileStore<Entry>.Contents
        do { contents = try file.read() } catch {
            switch error {
            case .unreadable(let failure):
                throw Problem(description: "cannot read resume state: \(failure.description); not resuming")
            case .newerVersion(let version):
                throw Problem(description: "resume state '\(path)' is of format version \(version), newer than this gstplay reads "
                              + "(\(JSONFileStore<Entry>.version)): left as it is, and not used")
            case .corrupt(let reason):
                guard startingOverWhenCorrupt else {
                    throw Problem(description: "resume state '\(path)' is corrupt (\(reason)); not resuming")
                }
                return Read(entries: [], damage: "resume state '\(path)' was corrupt (\(reason)): started a new one")
            }
        }
        let usable = contents.entries.filter(\.hasPossiblePosition)
        let dropped = contents.dropped + contents.entries.count - usable.count
        guard dropped > 0 else { return Read(entries: usable) }
        let total = contents.dropped + contents.entries.count
        return Read(entries: usable, damage: "resume state '\(path)': dropped \(dropped) of \(total) entries "
                    + "(not readable, or an impossible position); kept the other \(usable.count)")
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

extension ResumeStore.Entry {
    /// Reads an entry: the URI, position and save time must read (else the entry is dropped);
    /// ``settings`` that do not read are left out (``ResumeSettings`` keeps the fields that do).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: ResumeStore.Entry.CodingKeys.self)
        self.init(uri: try container.decode(String.self, forKey: .uri),
                  size: try container.decodeIfPresent(Int64.self, forKey: .size),
                  mtime: try container.decodeIfPresent(Int64.self, forKey: .mtime),
                  position: try container.decode(Double.self, forKey: .position),
                  savedAt: try container.decode(Int64.self, forKey: .savedAt),
                  duration: try container.decodeIfPresent(Double.self, forKey: .duration),
                  settings: (try? container.decodeIfPresent(ResumeSettings.self, forKey: .settings)).flatMap { $0 })
    }
}
