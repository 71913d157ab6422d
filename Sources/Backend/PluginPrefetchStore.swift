import CGStreamer
import GLibSupport

/// What each kind of media needed, for ``PluginPrefetchFeature``: per kind of media (a URI's
/// scheme and file extension, ``kind(of:)``), the plugins of the decoding elements its last play
/// built. One JSON document (``JSONFileStore``: shared by every player process, replaced whole),
/// newest kind last, at most ``capacity`` kinds of at most ``maximumPlugins`` plugins each.
///
/// **Thread:** any; ``records()`` and ``record(_:for:)`` do blocking file I/O (a small file).
public struct PluginPrefetchStore: Sendable {
    /// One kind of media and what its last play needed.
    struct Entry: Codable, Equatable, Sendable {
        /// ``PluginPrefetchStore/kind(of:)``, such as `file:mp4`.
        var kind: String
        /// Plugin names (`gst_plugin_get_name`), in the order the pipeline held their elements.
        var plugins: [String]
    }

    /// The document's path.
    public let path: String
    /// Kinds kept; the oldest goes first.
    public static let capacity = 64
    /// Plugins kept per kind.
    public static let maximumPlugins = 16

    /// A store in the JSON document at `path` (its directory is made when first written).
    public init(path: String) { self.path = path }

    /// `$XDG_CACHE_HOME/gstplay/plugin-prefetch.json` (`g_get_user_cache_dir`).
    public static var defaultPath: String {
        (String(validatingCString: g_get_user_cache_dir()) ?? "/tmp") + "/gstplay/plugin-prefetch.json"
    }

    private var file: JSONFileStore<Entry> { JSONFileStore(path: path, lockPath: path + ".lock", sizeLimit: 256 << 10) }

    /// The kind of media `uri` is: its scheme and its path's file extension, lower case
    /// (`file:mp4`, `https:m3u8`; `g_uri_parse`), nil without an extension of 1 to 8 letters and
    /// digits. The scheme is part of it because the same file over HTTP needs other plugins.
    public static func kind(of uri: String) -> String? {
        guard let parsed = g_uri_parse(uri, G_URI_FLAGS_NONE, nil) else { return nil }
        defer { g_uri_unref(parsed) }
        guard let scheme = g_uri_get_scheme(parsed).map({ String(cString: $0).lowercased() }),
              let path = g_uri_get_path(parsed).map({ String(cString: $0) }),
              let name = path.split(separator: "/").last, let dot = name.lastIndex(of: ".") else { return nil }
        let fileExtension = name[name.index(after: dot)...].lowercased()
        guard (1...8).contains(fileExtension.count), fileExtension.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) }) else { return nil }
        return scheme + ":" + fileExtension
    }

    /// Every kind's record (kind → plugin names), empty when there is none or the document cannot be read.
    public func records() -> [String: [String]] {
        guard let entries = try? file.read().entries else { return [:] }
        var records: [String: [String]] = [:]
        for entry in entries { records[entry.kind] = Array(entry.plugins.filter(Self.isPluginName).prefix(Self.maximumPlugins)) }
        return records
    }

    /// Records `plugins` for `kind` (replacing what was there, the kind moved to the newest
    /// place), under the document's lock; does nothing when that is already the record. A
    /// document that cannot be read or written is left as it is: the store is an optimisation.
    public func record(_ plugins: [String], for kind: String) {
        let plugins = Array(plugins.filter(Self.isPluginName).prefix(Self.maximumPlugins))
        if let slash = path.lastIndex(of: "/"), slash > path.startIndex { try? AtomicFile.makeDirectories(String(path[..<slash])) }
        try? file.withLock(.exclusive) { (openError: Int32?) throws(AtomicFile.Failure) in
            guard openError == nil, let entries = try? file.read().entries else { return }
            guard entries.last(where: { $0.kind == kind })?.plugins != plugins else { return }
            let kept = entries.filter { $0.kind != kind }.suffix(Self.capacity - 1)
            try file.write(Array(kept) + [Entry(kind: kind, plugins: plugins)])
        }
    }

    /// A plugin name as the registry has them: letters, digits, `_` and `-`.
    static func isPluginName(_ name: String) -> Bool {
        !name.isEmpty && name.count <= 64 && name.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_" || $0 == "-") }
    }
}
