/// Reads the video ladder of an MPEG-DASH manifest (ISO/IEC 23009-1 MPD) into ``Variant``s, the
/// same shape ``MasterPlaylist`` gives for HLS, so one ABR policy drives both demuxers.
///
/// Only what the policy needs is read: the MPD's `type` (`dynamic` = live) and, for each video
/// `Representation`, `bandwidth`, `width`, `height`, `codecs` and the `SegmentTemplate@media`
/// in force (its own, else its `AdaptationSet`'s). A variant's ``Variant/uri`` is that template
/// resolved against the manifest URI with `$RepresentationID$`/`$Bandwidth$` filled in: the
/// monitor maps a downloaded segment to its variant by that URI's directory. `dashdemux` itself
/// parses the manifest for playback; this reader sees the same bytes (a probe on its sink pad).
///
/// Pure and thread-agnostic.
public enum DashManifest {
    /// Parses `text` (an MPD document); relative templates are resolved against `baseURI`.
    /// Returns ``MasterPlaylist/Kind/invalid`` when it is not an MPD or holds no video ladder.
    public static func parse(_ text: String, baseURI: String) -> MasterPlaylist.Kind {
        var isMPD = false, isLive = false
        var setIsVideo = false, setTemplate: String?
        var open: (attributes: [String: String], template: String?)?
        var variants: [Variant] = []
        func finish() {
            guard let (attributes, template) = open else { return }
            open = nil
            let type = attributes["mimeType"] ?? attributes["contentType"] ?? ""
            guard setIsVideo || type.hasPrefix("video"), let bandwidth = attributes["bandwidth"].flatMap({ Int($0) }) else { return }
            var media = template ?? setTemplate ?? attributes["id"] ?? ""
            media = media.replacingAll("$RepresentationID$", with: attributes["id"] ?? "")
                .replacingAll("$Bandwidth$", with: String(bandwidth))
            variants.append(Variant(index: 0, bandwidth: bandwidth,
                                    width: attributes["width"].flatMap { Int($0) }, height: attributes["height"].flatMap { Int($0) },
                                    codecs: attributes["codecs"], uri: MasterPlaylist.resolve(media, against: baseURI)))
        }
        for tag in Tag.scan(text) {
            switch (tag.name, tag.closing) {
            case ("MPD", false):
                isMPD = true
                isLive = tag.attributes["type"] == "dynamic"
            case ("AdaptationSet", false):
                let type = tag.attributes["contentType"] ?? tag.attributes["mimeType"] ?? ""
                setIsVideo = type.hasPrefix("video")
                setTemplate = nil
            case ("AdaptationSet", true):
                finish()
                setIsVideo = false
                setTemplate = nil
            case ("Representation", false):
                finish()
                open = (tag.attributes, nil)
                if tag.selfClosing { finish() }
            case ("Representation", true):
                finish()
            case ("SegmentTemplate", false):
                if open != nil { open?.template = tag.attributes["media"] } else { setTemplate = tag.attributes["media"] }
            default:
                break
            }
        }
        finish()
        guard isMPD else { return .invalid }
        guard !variants.isEmpty else { return .media(isLive: isLive) }
        variants.sort { ($0.bandwidth, $0.height ?? 0) < ($1.bandwidth, $1.height ?? 0) }
        for i in variants.indices { variants[i].index = i }
        return .master(variants)
    }

    /// One XML start or end tag: its local name (namespace prefix dropped) and attributes.
    struct Tag {
        var name: String
        var closing: Bool
        var selfClosing: Bool
        var attributes: [String: String]

        /// The tags of `text` in order; comments, declarations and text content are skipped.
        static func scan(_ text: String) -> [Tag] {
            var tags: [Tag] = []
            var rest = Substring(text)
            while let open = rest.firstIndex(of: "<") {
                rest = rest[rest.index(after: open)...]
                if rest.hasPrefix("!--") {
                    guard let end = rest.firstRange(of: "-->") else { break }
                    rest = rest[end.upperBound...]
                    continue
                }
                guard let close = rest.firstIndex(of: ">") else { break }
                var body = rest[..<close]
                rest = rest[rest.index(after: close)...]
                guard let first = body.first, first != "?", first != "!" else { continue }
                let closing = first == "/"
                if closing { body = body.dropFirst() }
                let selfClosing = body.last == "/"
                if selfClosing { body = body.dropLast() }
                let nameEnd = body.firstIndex { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" } ?? body.endIndex
                let qualified = body[..<nameEnd]
                let name = qualified.split(separator: ":").last.map(String.init) ?? String(qualified)
                tags.append(Tag(name: name, closing: closing, selfClosing: selfClosing, attributes: attributes(body[nameEnd...])))
            }
            return tags
        }

        /// `name="value"` / `name='value'` pairs; the five predefined entities are decoded.
        static func attributes(_ text: Substring) -> [String: String] {
            var result: [String: String] = [:]
            var rest = text
            while let equals = rest.firstIndex(of: "=") {
                let name = MasterPlaylist.trimmed(rest[..<equals]).split(whereSeparator: \.isWhitespace).last.map(String.init) ?? ""
                rest = rest[rest.index(after: equals)...].drop { $0.isWhitespace }
                guard let quote = rest.first, quote == "\"" || quote == "'" else { break }
                rest = rest.dropFirst()
                guard let end = rest.firstIndex(of: quote) else { break }
                result[name] = decodeEntities(rest[..<end])
                rest = rest[rest.index(after: end)...]
            }
            return result
        }

        private static func decodeEntities(_ value: Substring) -> String {
            guard value.contains("&") else { return String(value) }
            return String(value).replacingAll("&lt;", with: "<").replacingAll("&gt;", with: ">")
                .replacingAll("&quot;", with: "\"").replacingAll("&apos;", with: "'").replacingAll("&amp;", with: "&")
        }
    }
}
