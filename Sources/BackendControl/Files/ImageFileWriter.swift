import Backend
import BackendCore
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import GLibSupport
import Glibc

/// Writes image files so that a failure leaves nothing behind: each file goes to a temporary
/// name in its target directory (`open(O_CREAT|O_EXCL)`), then `rename(2)` puts it in place.
/// Also the naming rules shared by thumbnails and snapshots. Any thread.
public enum ImageFileWriter {
    /// A write that failed, naming the path and the system's reason.
    public struct Failure: Error, CustomStringConvertible {
        /// The path that could not be written.
        public var path: String
        /// The system's reason.
        public var reason: String
        /// `cannot write PATH: REASON`.
        public var description: String { "cannot write \(path): \(reason)" }

        /// A failure to write `path` for `reason`.
        public init(path: String, reason: String) {
            self.path = path
            self.reason = reason
        }
    }

    /// Writes `bytes` to `path` through a temporary file and a rename; an existing `path` that
    /// is not a regular file (a device, a FIFO, a symbolic link…) is refused, never replaced.
    public static func write(_ bytes: Data, to path: String) throws {
        if let kind = AtomicFile.nonRegularKind(path) { throw Failure(path: path, reason: "it is \(kind), not a regular file") }
        let temporary = parent(of: path) + "/." + PathText.lastComponent(path) + ".tmp-\(getpid())"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw Failure(path: path, reason: String(cString: strerror(errno))) }
        var failure: String?
        bytes.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let written = Glibc.write(fd, raw.baseAddress! + offset, raw.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    failure = String(cString: strerror(errno)); return
                }
                offset += written
            }
        }
        if close(fd) != 0, failure == nil { failure = String(cString: strerror(errno)) }
        if failure == nil, rename(temporary, path) != 0 { failure = String(cString: strerror(errno)) }
        if let failure {
            unlink(temporary)
            throw Failure(path: path, reason: failure)
        }
    }

    /// Writes every file into `directory` (created when missing); on a failure removes the
    /// files already written (and the directory if it was created here).
    public static func writeAll(_ files: [(name: String, bytes: Data)], into directory: String) throws {
        var created = false
        if !PathText.exists(directory) {
            guard mkdir(directory, 0o777) == 0 else { throw Failure(path: directory, reason: String(cString: strerror(errno))) }
            created = true
        }
        var written: [String] = []
        do {
            for file in files {
                let path = PathText.appending(file.name, to: directory)
                try write(file.bytes, to: path)
                written.append(path)
            }
        } catch {
            for path in written { unlink(path) }
            if created { rmdir(directory) }
            throw error
        }
    }

    /// The file name of a location without directories and extension (`clip` for `/a/clip.mp4`,
    /// also for URIs).
    public static func baseName(of location: String) -> String {
        let last = location.split(separator: "/").last.map(String.init) ?? location
        let stem = PathText.deletingExtension(PathText.removingPercentEncoding(last) ?? last)
        let cleaned = stem.map { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" || $0 == "." ? $0 : "_" }
        return cleaned.isEmpty ? "media" : String(cleaned)
    }

    /// The file name of a location without directories, with its extension (`clip.mp4` for
    /// `/a/clip.mp4`, also for URIs; percent-decoded; `/` never appears in it).
    public static func fileName(of location: String) -> String {
        let last = location.split(separator: "/").last.map(String.init) ?? location
        let name = PathText.removingPercentEncoding(last) ?? last
        return name.isEmpty ? "media" : String(name.map { $0 == "/" ? "_" : $0 })
    }

    /// `HH-MM-SS.mmm` (mpv's screenshot time format), e.g. `00-01-02.500`.
    public static func timestamp(_ time: MediaTime) -> String {
        let ms = max(time.milliseconds, 0)
        let h = ms / 3_600_000, m = (ms / 60_000) % 60, s = (ms / 1000) % 60, f = ms % 1000
        func pad(_ value: Int64, _ width: Int) -> String {
            let text = String(value)
            return String(repeating: "0", count: max(0, width - text.count)) + text
        }
        return "\(pad(h, 2))-\(pad(m, 2))-\(pad(s, 2)).\(pad(f, 3))"
    }

    /// The directory `path` is in (`.` for a bare name).
    public static func parent(of path: String) -> String {
        let directory = PathText.deletingLastComponent(path)
        return directory.isEmpty ? "." : directory
    }

    /// Throws unless `directory` exists and this process may create files in it (`path`: the
    /// file named in the error).
    public static func checkWritableDirectory(_ directory: String, for path: String) throws {
        guard PathText.isDirectory(directory) else {
            throw Failure(path: path, reason: "no such directory \(directory)")
        }
        guard access(directory, W_OK | X_OK) == 0 else { throw Failure(path: path, reason: String(cString: strerror(errno))) }
    }
}
