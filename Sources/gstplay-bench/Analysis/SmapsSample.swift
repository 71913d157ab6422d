import Foundation
import Glibc

/// Resident memory of one process, grouped by mapping.
struct SmapsSample: Sendable {
    enum Category: String, CaseIterable, Sendable {
        case anonymous = "heap and anonymous memory"
        case executable = "the executable itself"
        case swiftRuntime = "Swift runtime libraries (libswift*, libdispatch, libBlocksRuntime)"
        case foundation = "Foundation libraries (Foundation, FoundationEssentials, FoundationInternationalization, _FoundationICU)"
        case gstreamer = "GStreamer, GLib and plugins"
        case otherLibraries = "other shared libraries (codecs, libc, …)"
        case other = "stacks and other"
    }

    var kib: [Category: Int] = [:]
    var totalKiB = 0
    var rssAnonKiB = 0
    var rssFileKiB = 0
    var threads = 0
    /// Swift/Foundation mappings by resident size, largest first.
    var swiftMappings: [(name: String, kib: Int)] = []

    init?(pid: pid_t) {
        guard let smaps = ProcFS.read("/proc/\(pid)/smaps"), !smaps.isEmpty else { return nil }
        let executable = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/exe")) ?? ""
        var category = Category.other
        var path = ""
        var perSwiftLibrary: [String: Int] = [:]
        for line in smaps.split(separator: "\n", omittingEmptySubsequences: true) {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            guard let first = fields.first else { continue }
            if first.contains("-") && !first.hasSuffix(":") {
                path = fields.count > 5 ? fields[5...].joined(separator: " ") : ""
                category = Self.category(path: path, executable: executable)
            } else if first == "Rss:", fields.count > 1, let value = Int(fields[1]) {
                kib[category, default: 0] += value
                totalKiB += value
                if category == .swiftRuntime || category == .foundation {
                    perSwiftLibrary[String(path.split(separator: "/").last ?? ""), default: 0] += value
                }
            }
        }
        swiftMappings = perSwiftLibrary.map { ($0.key, $0.value) }.sorted { $0.kib > $1.kib }
        rssAnonKiB = ProcFS.statusField("RssAnon", pid: "\(pid)") ?? 0
        rssFileKiB = ProcFS.statusField("RssFile", pid: "\(pid)") ?? 0
        threads = ProcFS.statusField("Threads", pid: "\(pid)") ?? 0
    }

    static func category(path: String, executable: String) -> Category {
        if path.isEmpty || path == "[heap]" || path.hasPrefix("[anon") { return .anonymous }
        if path == executable { return .executable }
        if path.hasPrefix("[") { return .other }
        let name = path.split(separator: "/").last.map(String.init) ?? path
        if name.contains("Foundation") { return .foundation }
        if path.contains("/lib/swift/") || name.hasPrefix("libswift") || name.hasPrefix("libdispatch") || name.hasPrefix("libBlocksRuntime") {
            return .swiftRuntime
        }
        if name.hasPrefix("libgst") || path.contains("/gstreamer-1.0/") || name.hasPrefix("libglib-") || name.hasPrefix("libgobject-")
            || name.hasPrefix("libgio-") || name.hasPrefix("libgmodule-") || name.hasPrefix("libgthread-") || name.hasPrefix("liborc-") {
            return .gstreamer
        }
        if name.contains(".so") { return .otherLibraries }
        return .other
    }
}
