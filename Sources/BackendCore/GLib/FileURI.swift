import CGStreamer

/// `file://` URIs and local paths, through GLib (any thread, pure).
package enum FileURI {
    /// The absolute path a `file://` URI names, percent-decoded (`g_filename_from_uri`); nil for
    /// other URIs, for a URI with a host other than `localhost`, and for one GLib refuses (a `%00`
    /// or an invalid escape in the path, say). A raw `#` (GLib refuses fragments in file URIs)
    /// is part of the file name, as a user who typed `file:///music/a#b.mp3` meant.
    package static func path(of uri: String) -> String? {
        guard URIScheme.isFile(uri) else { return nil }
        var host: UnsafeMutablePointer<gchar>?
        let escaped = uri.replacingAll("#", with: "%23")
        guard let path = String(takingGLibString: g_filename_from_uri(escaped, &host, nil)) else { return nil }
        let hostName = String(takingGLibString: host)
        guard hostName == nil || hostName == "localhost" else { return nil }
        return path
    }

    /// The `file://` URI of the absolute path `path`, percent-encoded (`g_filename_to_uri`); nil
    /// for a relative path.
    package static func uri(forPath path: String) -> String? {
        String(takingGLibString: g_filename_to_uri(path, nil, nil))
    }
}
