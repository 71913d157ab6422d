import Glibc

/// Reading `/proc` files. Their size reads as 0, so they are read with `read(2)` to the end
/// (Foundation's `String(contentsOfFile:)` may stop after the first chunk).
enum ProcFS {
    static func read(_ path: String) -> String? {
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

    /// A `Name:  value kB` field of `/proc/<pid>/status` as an integer (kB for memory fields).
    static func statusField(_ name: String, pid: String = "self") -> Int? {
        guard let text = read("/proc/\(pid)/status") else { return nil }
        for line in text.split(separator: "\n") where line.hasPrefix(name + ":") {
            let value = line.dropFirst(name.count + 1).split(whereSeparator: { $0 == " " || $0 == "\t" }).first
            return value.flatMap { Int($0) }
        }
        return nil
    }
}
