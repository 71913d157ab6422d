import Glibc
import ProcessProbe

/// The memory of one process from `/proc/PID/smaps`, summed per group of mappings, with `Rss`,
/// `Pss` and private pages apart: a library another process also maps counts fully in `Rss`,
/// shared in `Pss`, and not at all in private; heap and anonymous memory are private.
struct Footprint: Sendable {
    /// What a mapping belongs to (the rows of the footprint table).
    enum Group: String, CaseIterable, Sendable {
        case executable = "the executable"
        case gstreamer = "GStreamer core libraries (`libgst*`, liborc)"
        case plugins = "GStreamer plugins (`gstreamer-1.0/`)"
        case glib = "GLib, GObject, GIO, GModule"
        case doors = "door libraries (libsoup, GUPnP/GSSDP, libxml2, ICU, X11, Kerberos, nghttp2, libpsl)"
        case swift = "Swift runtime and Foundation (shared libraries)"
        case otherLibraries = "other libraries (libc, codecs, …)"
        case heap = "`[heap]` (brk)"
        case anonymous = "anonymous (malloc arenas, thread stacks, mmap)"
        case other = "other (`[stack]`, vdso, memfd, …)"
    }

    /// One group's sums in KiB.
    struct Sizes: Sendable {
        var rss = 0
        var pss = 0
        var privateKiB = 0

        static func += (left: inout Sizes, right: Sizes) {
            left.rss += right.rss
            left.pss += right.pss
            left.privateKiB += right.privateKiB
        }
    }

    var groups: [Group: Sizes] = [:]
    var total = Sizes()
    /// The largest single files mapped (libraries, plugins, the executable) by `Rss`, largest first.
    var files: [(name: String, sizes: Sizes)] = []
    /// `VmHWM` (peak resident) at the moment of the sample, KiB.
    var peakKiB = 0

    /// Reads `pid`'s smaps now; nil when the process is gone or unreadable.
    init?(pid: pid_t) {
        let probe = ProcessProbe(pid: pid)
        guard let mappings = probe.mappings else { return nil }
        let executable = probe.executable ?? ""
        var perFile: [String: Sizes] = [:]
        for mapping in mappings {
            let sizes = Sizes(rss: mapping.rssKiB, pss: mapping.pssKiB, privateKiB: mapping.privateKiB)
            groups[Self.group(path: mapping.path, executable: executable), default: Sizes()] += sizes
            total += sizes
            if mapping.path.hasPrefix("/") {
                perFile[String(mapping.path.split(separator: "/").last ?? ""), default: Sizes()] += sizes
            }
        }
        files = perFile.map { ($0.key, $0.value) }.sorted { $0.sizes.rss > $1.sizes.rss }
        peakKiB = probe.peakRSSKiB ?? 0
    }

    /// The door libraries and what they alone pull in (file-name prefixes): the web remote's and
    /// the cache's libsoup with its HTTP/2, PSL and Kerberos libraries, casting's GUPnP/GSSDP/GUPnP-AV
    /// with libxml2 and ICU, the window's and the screensaver's X11 client libraries. (TLS and IDN
    /// libraries are not counted: GStreamer's own plugins map them too.)
    static let doorLibraryPrefixes = [
        "libsoup-", "libgupnp", "libgssdp", "libxml2", "libicu", "libX11", "libXss", "libXext", "libXfixes",
        "libxcb", "libXau", "libXdmcp", "libnghttp2", "libpsl", "libkrb5", "libk5crypto", "libgssapi", "libcom_err",
        "libkeyutils",
    ]

    static func group(path: String, executable: String) -> Group {
        if path == "[heap]" { return .heap }
        if path.isEmpty || path.hasPrefix("[anon") || path.hasPrefix("[stack:") { return .anonymous }
        if path == executable { return .executable }
        if path.hasPrefix("[") || !path.hasPrefix("/") { return .other }
        let name = path.split(separator: "/").last.map(String.init) ?? path
        if path.contains("/gstreamer-1.0/") { return .plugins }
        if name.hasPrefix("libgst") || name.hasPrefix("liborc-") { return .gstreamer }
        if name.hasPrefix("libglib-") || name.hasPrefix("libgobject-") || name.hasPrefix("libgio-")
            || name.hasPrefix("libgmodule-") || name.hasPrefix("libgthread-") { return .glib }
        if doorLibraryPrefixes.contains(where: { name.hasPrefix($0) }) { return .doors }
        if path.contains("/lib/swift/") || name.hasPrefix("libswift") || name.contains("Foundation")
            || name.hasPrefix("libdispatch") || name.hasPrefix("libBlocksRuntime") { return .swift }
        if name.contains(".so") { return .otherLibraries }
        return .other
    }
}
