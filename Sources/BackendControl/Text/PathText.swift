import Glibc

/// Path-name operations and file tests without Foundation (the shipped gstplay links
/// FoundationEssentials only). The string operations give what `NSString`'s
/// methods of the same names give (gstplayTests/TextHelperTests compares them); the tests are
/// `stat(2)` calls that follow symbolic links like `FileManager.fileExists(atPath:)`.
/// Pure apart from `stat`; any thread.
package enum PathText {
    /// `NSString.deletingLastPathComponent`: `/a/b.png` → `/a`, `b.png` → ``, `/b.png` → `/`.
    package static func deletingLastComponent(_ path: String) -> String {
        let fixed = fixingSlashes(path)
        if fixed == "/" || fixed.isEmpty { return fixed }
        guard let slash = fixed.lastIndex(of: "/") else { return "" }
        if slash == fixed.startIndex { return "/" }
        return String(fixed[..<slash])
    }

    /// `NSString.lastPathComponent`: `/a/b.png` → `b.png`, `a/b/` → `b`, `/` → `/`.
    package static func lastComponent(_ path: String) -> String {
        let fixed = fixingSlashes(path)
        if fixed.utf16.count <= 1 { return fixed }
        guard let slash = fixed.lastIndex(of: "/") else { return fixed }
        return String(fixed[fixed.index(after: slash)...])
    }

    /// `NSString.appendingPathComponent`: `dir` + `x.png` → `dir/x.png` (no slash doubled
    /// after a trailing one, nothing else normalised).
    package static func appending(_ component: String, to path: String) -> String {
        if component.isEmpty { return path }
        if path.isEmpty { return component }
        return path.hasSuffix("/") ? path + component : path + "/" + component
    }

    /// `NSString.deletingPathExtension`: `clip.mp4` → `clip`, `a.b.c` → `a.b`; a leading dot
    /// (`.hidden`) and `..` are not extensions.
    package static func deletingExtension(_ path: String) -> String {
        let fixed = fixingSlashes(path)
        if fixed == "/" { return fixed }
        let start = fixed.lastIndex(of: "/").map { fixed.index(after: $0) } ?? fixed.startIndex
        let name = fixed[start...]
        guard let dot = name.lastIndex(of: "."), dot != start, name != ".." else { return fixed }
        return String(fixed[..<dot])
    }

    /// `String.removingPercentEncoding`: `%XX` escapes decoded; nil for a `%` without two hex
    /// digits or when the bytes are not UTF-8.
    package static func removingPercentEncoding(_ text: String) -> String? {
        var bytes: [UInt8] = []
        var iterator = text.utf8.makeIterator()
        while let byte = iterator.next() {
            guard byte == UInt8(ascii: "%") else { bytes.append(byte); continue }
            guard let high = iterator.next().flatMap(hexValue), let low = iterator.next().flatMap(hexValue) else { return nil }
            bytes.append(high << 4 | low)
        }
        return String(validating: bytes, as: UTF8.self)
    }

    /// True for an existing directory (following links).
    package static func isDirectory(_ path: String) -> Bool {
        fileType(path) == S_IFDIR
    }

    /// True when `path` exists (following links).
    package static func exists(_ path: String) -> Bool {
        fileType(path) != nil
    }

    /// The `S_IFMT` bits of `stat(path)`, nil when it fails.
    package static func fileType(_ path: String) -> mode_t? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return info.st_mode & S_IFMT
    }

    /// Runs of slashes made one, a trailing slash removed (except for `/` itself).
    private static func fixingSlashes(_ path: String) -> String {
        var result = ""
        var previousSlash = false
        for character in path {
            if character == "/" && previousSlash { continue }
            previousSlash = character == "/"
            result.append(character)
        }
        if result.count > 1 && result.hasSuffix("/") { result.removeLast() }
        return result
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
        default: return nil
        }
    }
}
