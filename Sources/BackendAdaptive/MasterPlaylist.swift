import BackendCore
import CGStreamer

/// Parses an HLS master playlist (RFC 8216 §4.3.4.2 `#EXT-X-STREAM-INF`) into ``Variant``s.
///
/// Pure and thread-agnostic; the `AdaptiveMonitor` feeds it the bytes the demuxer itself
/// received (a probe on the demuxer's sink pad), so nothing is fetched twice.
enum MasterPlaylist {
    /// What a playlist turned out to be.
    enum Kind: Sendable, Hashable {
        /// A master playlist with these variants, sorted by bandwidth (lowest first), indices set.
        case master([Variant])
        /// A media playlist (segments, no variants): a single-rendition stream. `isLive` when it has no `#EXT-X-ENDLIST`.
        case media(isLive: Bool)
        /// Not an M3U8 playlist.
        case invalid
    }

    /// Parses `text`; relative variant URIs are resolved against `baseURI`.
    static func parse(_ text: String, baseURI: String) -> Kind {
        let lines = text.split(whereSeparator: \.isNewline).map(trimmed)
        guard lines.first?.hasPrefix("#EXTM3U") == true else { return .invalid }
        var variants: [Variant] = []
        var pending: [String: String]?
        for line in lines.dropFirst() where !line.isEmpty {
            if line.hasPrefix("#EXT-X-STREAM-INF:") {
                pending = attributes(String(line.dropFirst("#EXT-X-STREAM-INF:".count)))
            } else if line.hasPrefix("#") {
                continue
            } else if let attrs = pending {
                pending = nil
                guard let bandwidth = attrs["BANDWIDTH"].flatMap({ Int($0) }) else { continue }
                let size = attrs["RESOLUTION"]?.split(separator: "x").compactMap { Int($0) }
                variants.append(Variant(index: 0, bandwidth: bandwidth,
                                        averageBandwidth: attrs["AVERAGE-BANDWIDTH"].flatMap { Int($0) },
                                        width: size?.count == 2 ? size?[0] : nil, height: size?.count == 2 ? size?[1] : nil,
                                        codecs: attrs["CODECS"], uri: resolve(line, against: baseURI)))
            }
        }
        if variants.isEmpty {
            guard lines.contains(where: { $0.hasPrefix("#EXTINF") || $0.hasPrefix("#EXT-X-TARGETDURATION") }) else { return .invalid }
            return .media(isLive: !lines.contains("#EXT-X-ENDLIST"))
        }
        variants.sort { ($0.bandwidth, $0.height ?? 0) < ($1.bandwidth, $1.height ?? 0) }
        for i in variants.indices { variants[i].index = i }
        return .master(variants)
    }

    /// Splits an attribute list `A=1,B="x,y",C=2` (quoted values may hold commas).
    static func attributes(_ list: String) -> [String: String] {
        var result: [String: String] = [:]
        var key = "", value = "", inKey = true, quoted = false
        func flush() {
            if !key.isEmpty { result[trimmed(Substring(key))] = value }
            key = ""; value = ""; inKey = true
        }
        for ch in list {
            if inKey {
                if ch == "=" { inKey = false } else if ch == "," { flush() } else { key.append(ch) }
            } else if ch == "\"" {
                quoted.toggle()
            } else if ch == "," && !quoted {
                flush()
            } else {
                value.append(ch)
            }
        }
        flush()
        return result
    }

    /// `text` without leading and trailing spaces, tabs and carriage returns.
    static func trimmed(_ text: Substring) -> String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\r" }
        guard let first = text.firstIndex(where: { !isSpace($0) }), let last = text.lastIndex(where: { !isSpace($0) }) else { return "" }
        return String(text[first...last])
    }

    /// Resolves `reference` against `base` as the demuxers do for playlist URIs: RFC 3986
    /// reference resolution by `gst_uri_join_strings` (absolute URIs kept, `/path` against the
    /// authority, otherwise against the base's directory). `reference` unchanged when GStreamer
    /// cannot join them (a base that is not a URI).
    static func resolve(_ reference: String, against base: String) -> String {
        GStreamerRuntime.ensureInitialized()   // GstUri is a mini object: gst_init first
        return String(takingGLibString: gst_uri_join_strings(base, reference)) ?? reference
    }
}
