/// The manifest of an adaptive stream, whichever protocol it is: an HLS playlist
/// (``MasterPlaylist``) or an MPEG-DASH MPD (``DashManifest``), told apart by their first bytes.
///
/// Pure and thread-agnostic.
enum AdaptiveManifest {
    /// Parses `text` with the reader its format needs; relative URIs resolve against `baseURI`.
    static func parse(_ text: String, baseURI: String) -> MasterPlaylist.Kind {
        let head = text.drop { $0.isWhitespace || $0 == "\u{FEFF}" }
        if head.hasPrefix("#EXTM3U") { return MasterPlaylist.parse(text, baseURI: baseURI) }
        if head.hasPrefix("<") { return DashManifest.parse(text, baseURI: baseURI) }
        return .invalid
    }
}
