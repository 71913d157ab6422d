import Foundation
import Glibc
import ProcessProbe

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
        let probe = ProcessProbe(pid: pid)
        guard let mappings = probe.mappings else { return nil }
        let executable = probe.executable ?? ""
        var perSwiftLibrary: [String: Int] = [:]
        for mapping in mappings {
            let category = Self.category(path: mapping.path, executable: executable)
            kib[category, default: 0] += mapping.rssKiB
            totalKiB += mapping.rssKiB
            if category == .swiftRuntime || category == .foundation {
                perSwiftLibrary[String(mapping.path.split(separator: "/").last ?? ""), default: 0] += mapping.rssKiB
            }
        }
        swiftMappings = perSwiftLibrary.map { ($0.key, $0.value) }.sorted { $0.kib > $1.kib }
        rssAnonKiB = ProcFS.statusField("RssAnon", pid: probe.pid) ?? 0
        rssFileKiB = ProcFS.statusField("RssFile", pid: probe.pid) ?? 0
        threads = ProcFS.statusField("Threads", pid: probe.pid) ?? 0
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
