import CGStreamer
import Glibc

/// Whole-file reads and crash-safe whole-file writes with plain POSIX calls. Any thread.
///
/// ``write(_:to:)`` writes a temporary file next to the target (`open(O_CREAT|O_EXCL)`),
/// `fsync`s it, `rename`s it over the target and `fsync`s the directory: a reader (or a crash,
/// or `kill -9`, at any point) sees either the old file or the new one, never a mix.
/// `package`: the media cache's index (BackendCache) uses it too.
package enum AtomicFile {
    /// A failed system call: its name, the path and `strerror(errno)`.
    package struct Failure: Error, Sendable, Hashable, CustomStringConvertible {
        var call: String
        var path: String
        var code: Int32
        /// e.g. "Permission denied (open /x/state.json)".
        package var description: String { "\(String(cString: strerror(code))) (\(call) \(path))" }
        /// True for a missing file (`ENOENT`).
        package var isMissing: Bool { code == ENOENT }
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

    /// Replaces `path` with `bytes` atomically (temp file `<path>.tmp-<pid>`, fsync, rename,
    /// fsync of the directory). On failure the temp file is removed and `path` is untouched.
    package static func write(_ bytes: [UInt8], to path: String, mode: mode_t = 0o644) throws(Failure) {
        let temp = "\(path).tmp-\(getpid())"
        unlink(temp)
        let fd = open(temp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode)
        guard fd >= 0 else { throw Failure(call: "open", path: temp, code: errno) }
        var failure: Failure?
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + offset, $0.count - offset) }
            if written < 0 {
                if errno == EINTR { continue }
                failure = Failure(call: "write", path: temp, code: errno)
                break
            }
            offset += written
        }
        if failure == nil, fsync(fd) != 0 { failure = Failure(call: "fsync", path: temp, code: errno) }
        if close(fd) != 0, failure == nil { failure = Failure(call: "close", path: temp, code: errno) }
        if failure == nil, rename(temp, path) != 0 { failure = Failure(call: "rename", path: path, code: errno) }
        if let failure {
            unlink(temp)
            throw failure
        }
        syncDirectory(of: path)
    }

    /// `fsync` on the directory holding `path`, so the rename itself is durable.
    private static func syncDirectory(of path: String) {
        let directory = path.lastIndex(of: "/").map { $0 == path.startIndex ? "/" : String(path[..<$0]) } ?? "."
        let fd = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { return }
        fsync(fd)
        close(fd)
    }

    /// Creates `path` and its missing parents (`g_mkdir_with_parents`, mode 0700 for new ones);
    /// a relative `path` is relative to the working directory.
    package static func makeDirectories(_ path: String) throws(Failure) {
        if g_mkdir_with_parents(path, 0o700) != 0 { throw Failure(call: "mkdir", path: path, code: errno) }
    }
}
