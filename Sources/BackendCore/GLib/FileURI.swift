import CGStreamer

/// `file://` URIs and local paths, through GLib (any thread, pure).
package enum FileURI {
    /// The absolute path a `file://` URI names, percent-decoded (`g_filename_from_uri`); nil for
    /// other URIs, for a URI with a host other than `localhost`, and for one GLib refuses (a `%00`
    /// in the path, say).
    package static func path(of uri: String) -> String? {
        guard uri.hasPrefix("file://") else { return nil }
        var host: UnsafeMutablePointer<gchar>?
        guard let path = String(takingGLibString: g_filename_from_uri(uri, &host, nil)) else { return nil }
        let hostName = String(takingGLibString: host)
        guard hostName == nil || hostName == "localhost" else { return nil }
        return path
    }
}
