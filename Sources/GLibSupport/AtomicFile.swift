import CGStreamer
import Glibc

/// Whole-file reads (`open`, `read`, with a size limit) and crash-safe whole-file writes
/// (GLib's `g_file_set_contents_full`). Any thread.
///
/// ``write(_:to:mode:)`` passes `G_FILE_SET_CONTENTS_CONSISTENT | G_FILE_SET_CONTENTS_DURABLE`:
/// GLib writes a temporary file next to the target (`<path>.XXXXXX`, `g_mkstemp_full`), `fsync`s
/// it, and `rename`s it over the target, so a reader (or a crash, or `kill -9`, at any point)
/// sees either the old file or the new one, never a mix. A writer killed mid-write leaves its
/// temporary behind; ``JSONFileStore`` removes those under its lock.
package enum AtomicFile {
    /// A failed read or write: one line, e.g. "Permission denied (open /x/state.json)".
    package struct Failure: Error, Sendable, Hashable, CustomStringConvertible {
        /// The whole line.
        package var description: String
        /// True for a missing file (`ENOENT`).
        package var isMissing: Bool

        /// A refusal in words of its own.
        init(description: String) {
            self.description = description
            isMissing = false
        }

        /// A failed system call: its name, the path and `strerror(code)`.
        init(call: String, path: String, code: Int32) {
            description = "\(String(cString: strerror(code))) (\(call) \(path))"
            isMissing = code == ENOENT
        }

        /// A GLib error (its message, which names the file), freed here (`g_error_free`).
        init(taking error: UnsafeMutablePointer<GError>?, path: String) {
            defer { if let error { g_error_free(error) } }
            description = error.flatMap { String(validatingCString: $0.pointee.message) } ?? "cannot write '\(path)'"
            isMissing = error.map { $0.pointee.domain == g_file_error_quark() && $0.pointee.code == G_FILE_ERROR_NOENT.rawValue } ?? false
        }
    }

    /// The file's bytes (`open`, `read`); throws for a missing/unreadable file or one over `limit` bytes.
    package static func read(_ path: String, limit: Int) throws(Failure) -> [UInt8] {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw Failure(call: "open", path: path, code: errno) }
        defer { close(fd) }
        var result: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw Failure(call: "read", path: path, code: errno)
            }
            if count == 0 { break }
            result += chunk[0..<count]
            if result.count > limit { throw Failure(call: "read", path: path, code: EFBIG) }
        }
        return result
    }

    /// Replaces `path` with `bytes` atomically and durably (`g_file_set_contents_full` with
    /// `CONSISTENT | DURABLE`; a new file gets `mode`, less the umask). On failure GLib removes
    /// its temporary file and `path` is untouched.
    package static func write(_ bytes: [UInt8], to path: String, mode: mode_t = 0o644) throws(Failure) {
        var error: UnsafeMutablePointer<GError>?
        let flags = GFileSetContentsFlags(G_FILE_SET_CONTENTS_CONSISTENT.rawValue | G_FILE_SET_CONTENTS_DURABLE.rawValue)
        let contents: [UInt8] = bytes.isEmpty ? [0] : bytes   // a valid pointer also for no bytes
        let written = contents.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: gchar.self) {
                g_file_set_contents_full(path, $0.baseAddress!, gssize(bytes.count), flags, Int32(mode), &error)
            }
        }
        if written == 0 { throw Failure(taking: error, path: path) }
    }

    /// What `path` is when it exists and is not a regular file (`lstat`: a link is not
    /// followed): "a symbolic link", "a directory", "a FIFO", "a device", "a socket"; nil when it
    /// is missing or a regular file.
    package static func nonRegularKind(_ path: String) -> String? {
        var info = stat()
        guard lstat(path, &info) == 0 else { return nil }
        switch info.st_mode & S_IFMT {
        case S_IFREG: return nil
        case S_IFLNK: return "a symbolic link"
        case S_IFDIR: return "a directory"
        case S_IFIFO: return "a FIFO"
        case S_IFCHR, S_IFBLK: return "a device"
        case S_IFSOCK: return "a socket"
        default: return "not a regular file"
        }
    }

    /// Throws unless `path` is missing or a regular file: an atomic replace (a rename over the
    /// target) must never put a file in place of a device node, a FIFO, a socket, a directory or
    /// a symbolic link (the link itself would be replaced, not the file it points to).
    package static func requireReplaceable(_ path: String) throws(Failure) {
        guard let kind = nonRegularKind(path) else { return }
        throw Failure(description: "\(path) is \(kind), not a regular file: not replaced")
    }

    /// True for the name of a temporary file ``write(_:to:mode:)`` makes for `target` (a file
    /// name without directory): `<target>.` and six characters from `g_mkstemp`'s alphabet.
    package static func isTemporary(_ name: String, of target: String) -> Bool {
        guard name.hasPrefix(target + ".") else { return false }
        let suffix = name.utf8.dropFirst(target.utf8.count + 1)
        return suffix.count == 6 && suffix.allSatisfy { (48...57).contains($0) || (65...90).contains($0) || (97...122).contains($0) }
    }

    /// Creates `path` and its missing parents (`g_mkdir_with_parents`, mode 0700 for new ones);
    /// a relative `path` is relative to the working directory.
    package static func makeDirectories(_ path: String) throws(Failure) {
        if g_mkdir_with_parents(path, 0o700) != 0 { throw Failure(call: "mkdir", path: path, code: errno) }
    }
}
