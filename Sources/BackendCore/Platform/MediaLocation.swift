import CGStreamer

/// Turning what a user typed into URIs `playbin` accepts.
public enum MediaLocation {
    /// A URI for `location`: URIs with a scheme are validated (`gst_uri_is_valid`) and kept;
    /// anything else is a file path, made absolute against the current directory and converted
    /// with `gst_filename_to_uri`. Throws ``PlayerError/Kind/invalidInput`` for an empty string
    /// or a malformed URI. Whether the file exists is left to GStreamer to report.
    public static func uri(for location: String) throws(PlayerError) -> String {
        GStreamerRuntime.ensureInitialized()
        let trimmed = location.trimmingWhitespace()
        guard !trimmed.isEmpty else {
            throw PlayerError(kind: .invalidInput, message: "empty location")
        }
        if looksLikeURI(trimmed) {
            guard gst_uri_is_valid(trimmed) != 0 else {
                throw PlayerError(kind: .invalidInput, message: "malformed URI '\(trimmed)'", uri: trimmed)
            }
            if let reason = httpProblem(trimmed) {
                throw PlayerError(kind: .invalidInput, message: "malformed URI '\(trimmed)': \(reason)", uri: trimmed)
            }
            return trimmed
        }
        var error: UnsafeMutablePointer<GError>?
        guard let raw = gst_filename_to_uri(trimmed, &error) else {
            let text = error.map { String(cString: $0.pointee.message) } ?? "cannot convert path"
            if error != nil { g_error_free(error) }
            throw PlayerError(kind: .invalidInput, message: "\(text): '\(trimmed)'")
        }
        return String(takingGLibString: raw) ?? trimmed
    }

    /// Why an http(s) URI cannot be fetched (`g_uri_parse` fails, or no host), nil when it can
    /// or when it is not http(s): caught here, it fails at once instead of reaching souphttpsrc
    /// (which logs libsoup criticals and would be retried as a network error).
    static func httpProblem(_ uri: String) -> String? {
        guard URIScheme.isHTTP(uri) else { return nil }
        var error: UnsafeMutablePointer<GError>?
        guard let parsed = g_uri_parse(uri, G_URI_FLAGS_NONE, &error) else {
            let text = error.map { String(cString: $0.pointee.message) } ?? "cannot parse it"
            if error != nil { g_error_free(error) }
            return text
        }
        defer { g_uri_unref(parsed) }
        guard let host = g_uri_get_host(parsed), host.pointee != 0 else { return "no host" }
        return nil
    }

    /// The last path component of `uri`, percent-decoding undone (`g_uri_unescape_string`): what
    /// names media that has no title tag (the video window's title, MPRIS's `xesam:title`); the
    /// URI itself when it has no path. Pure; any thread.
    public static func displayName(ofURI uri: String) -> String {
        var path = Substring(uri)
        if let query = path.firstIndex(where: { $0 == "?" || $0 == "#" }) { path = path[..<query] }
        let last = path.split(separator: "/", omittingEmptySubsequences: true).last.map(String.init) ?? uri
        guard let decoded = g_uri_unescape_string(last, nil) else { return last }
        defer { g_free(decoded) }
        return String(cString: decoded)
    }

    /// True when `text` starts with an RFC 3986 scheme followed by `:` (and is not a
    /// Windows-style drive letter or a path containing a colon later on).
    public static func looksLikeURI(_ text: String) -> Bool {
        guard let colon = text.firstIndex(of: ":"), colon != text.startIndex else { return false }
        let scheme = text[..<colon]
        guard let first = scheme.first, first.isASCII, first.isLetter else { return false }
        return scheme.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "+" || $0 == "-" || $0 == ".") }
            && scheme.count > 1
    }
}

extension String {
    /// The string without leading and trailing white space (spaces, tabs, newlines).
    func trimmingWhitespace() -> String {
        let isSpace: (Character) -> Bool = { $0.isWhitespace }
        guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) }) else { return "" }
        return String(self[first...last])
    }

    /// ``trimmingWhitespace()`` for the feature targets (its own name, so that it never shadows
    /// the CLI's `StringProtocol.trimmingWhitespace()`, which keeps newlines).
    package func trimmingSurroundingWhitespace() -> String { trimmingWhitespace() }
}
