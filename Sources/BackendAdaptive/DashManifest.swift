import BackendCore

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
enum DashManifest {
    /// Parses `text` (an MPD document); relative templates are resolved against `baseURI`.
    /// Returns ``MasterPlaylist/Kind/invalid`` when it is not a well-formed MPD
    /// (``MarkupTag/scan(_:)``, GLib's `GMarkup`).
    static func parse(_ text: String, baseURI: String) -> MasterPlaylist.Kind {
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
        guard let tags = MarkupTag.scan(text) else { return .invalid }
        for tag in tags {
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
}
