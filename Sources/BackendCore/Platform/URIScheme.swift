import CGStreamer

/// A URI's scheme as GStreamer reads it, and the checks every target makes on it: the one place a
/// scheme is compared (case-insensitive, as RFC 3986 says: `HTTP://` is a network URI too).
/// Pure; any thread.
public enum URIScheme {
    /// The scheme, lowercased (`gst_uri_get_protocol`); nil for text that is no URI.
    public static func of(_ uri: String) -> String? { String(takingGLibString: gst_uri_get_protocol(uri)) }

    /// `http` or `https`: fetched over the network by souphttpsrc.
    public static func isHTTP(_ uri: String) -> Bool {
        let scheme = of(uri)
        return scheme == "http" || scheme == "https"
    }

    /// `file`: a local file.
    public static func isFile(_ uri: String) -> Bool { of(uri) == "file" }
}
