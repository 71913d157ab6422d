import BackendCore
import CGStreamer
import CGUPnP

/// What a renderer is told about a file: its MIME type, guessed by GIO from the name
/// (`g_content_type_guess`, `g_content_type_get_mime_type`: the shared MIME database), and the
/// local path of a `file://` URI. **Thread:** any.
enum MediaType {
    /// The MIME type for a file name (`video/mp4`), `application/octet-stream` when unknown.
    static func guess(forName name: String) -> String {
        var uncertain: gboolean = 0
        guard let type = g_content_type_guess(name, nil, 0, &uncertain) else { return "application/octet-stream" }
        defer { g_free(type) }
        guard let mime = g_content_type_get_mime_type(type) else { return "application/octet-stream" }
        defer { g_free(mime) }
        return String(cString: mime)
    }

    /// The path of a `file://` URI, or `uri` itself when it is a plain path; nil for other schemes.
    static func localPath(of uri: String) -> String? {
        if uri.hasPrefix("/") { return uri }
        return FileURI.path(of: uri)
    }
}
