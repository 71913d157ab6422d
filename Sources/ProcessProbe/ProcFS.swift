import DirectoryWalk
import Glibc

/// Raw reads of `/proc` files and directories (Linux).
///
/// `/proc` files report a size of 0, so they are read with `read(2)` until EOF; Foundation's
/// `String(contentsOfFile:)` may stop after the first chunk. Directories are listed with
/// ``DirectoryNames`` (GLib's `GDir`). Any thread; no state.
public enum ProcFS {
    /// The whole file at `path` as UTF-8 text, read with `read(2)` to EOF; nil when it cannot be opened.
    public static func read(_ path: String) -> String? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { break }
            bytes.append(contentsOf: chunk[0..<count])
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The names in the directory at `path` (without `.` and `..`); nil when it cannot be opened.
    public static func entries(_ path: String) -> [String]? { DirectoryNames.list(path) }

    /// The target of the symbolic link at `path` (`readlink(2)`), e.g. `/proc/self/exe`.
    public static func link(_ path: String) -> String? {
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = buffer.withUnsafeMutableBytes { readlink(path, $0.baseAddress!.assumingMemoryBound(to: CChar.self), $0.count) }
        guard count >= 0 else { return nil }
        return String(decoding: buffer[0..<count], as: UTF8.self)
    }

    /// A `Name:  value [kB]` field of `/proc/<pid>/status` as an integer (kB for memory fields).
    public static func statusField(_ name: String, pid: String = "self") -> Int? {
        guard let text = read("/proc/\(pid)/status") else { return nil }
        return field(name, in: text)
    }

    /// The first number after `Name:` in a `Name: value` text such as `/proc/meminfo` or `status`.
    public static func field(_ name: String, in text: String) -> Int? {
        for line in text.split(separator: "\n") where line.hasPrefix(name + ":") {
            let value = line.dropFirst(name.count + 1).split(whereSeparator: { $0 == " " || $0 == "\t" }).first
            return value.flatMap { Int($0) }
        }
        return nil
    }
}
