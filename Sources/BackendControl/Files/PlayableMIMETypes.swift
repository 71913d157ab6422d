import Backend
import CGStreamer

/// The MIME types a player offers to play (a desktop entry's `MimeType`, MPRIS
/// `SupportedMimeTypes`): a checked list of types with the GStreamer element that reads each,
/// kept to those whose element the installed plugins have (`gst_element_factory_find`).
/// **Thread:** any (GStreamer's registry is thread-safe).
public enum PlayableMIMETypes {
    /// Each MIME type with the demuxer or parser that reads it.
    public static let candidates: [(mime: String, element: String)] = [
        ("video/mp4", "qtdemux"), ("video/quicktime", "qtdemux"), ("video/3gpp", "qtdemux"), ("audio/mp4", "qtdemux"),
        ("audio/x-m4a", "qtdemux"), ("video/x-matroska", "matroskademux"), ("audio/x-matroska", "matroskademux"),
        ("video/webm", "matroskademux"), ("audio/webm", "matroskademux"), ("video/ogg", "oggdemux"), ("audio/ogg", "oggdemux"),
        ("audio/x-vorbis+ogg", "oggdemux"), ("audio/x-opus+ogg", "oggdemux"), ("audio/flac", "flacparse"), ("audio/x-flac", "flacparse"),
        ("audio/mpeg", "mpegaudioparse"), ("audio/aac", "aacparse"), ("audio/x-wav", "wavparse"), ("audio/wav", "wavparse"),
        ("video/x-msvideo", "avidemux"), ("video/mpeg", "mpegpsdemux"), ("video/mp2t", "tsdemux"), ("video/x-flv", "flvdemux"),
        ("video/x-ms-asf", "asfdemux"), ("audio/x-ms-wma", "asfdemux"), ("video/x-ms-wmv", "asfdemux"),
        ("application/vnd.apple.mpegurl", "hlsdemux"), ("application/x-mpegurl", "hlsdemux"), ("application/dash+xml", "dashdemux"),
    ]

    /// The candidates whose element is installed, in the list's order.
    public static func playable() -> [String] {
        GStreamerRuntime.ensureInitialized()
        return candidates.filter { candidate in
            guard let factory = gst_element_factory_find(candidate.element) else { return false }
            gst_object_unref(UnsafeMutableRawPointer(factory))
            return true
        }.map(\.mime)
    }
}
