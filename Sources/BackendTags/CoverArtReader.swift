import BackendCore
import CGStreamer

/// Reads a media file's cover art without playing it (`gstplay cover`): GStreamer's discoverer
/// (`gst_discoverer_discover_uri`, pbutils) reads its tags, and `TagReader` picks the picture
/// from the container's tags, then each stream's. **Thread:** any but a player's loop thread:
/// it blocks until the file is read (at most `timeout`).
public enum CoverArtReader {
    /// The picture of `location` (a path or URI), nil when the media has none. Throws when the
    /// media cannot be read (missing, not media, timed out).
    public static func read(from location: String, timeout: Duration = .seconds(10)) throws(CoverArtError) -> CoverArt? {
        GStreamerRuntime.ensureInitialized()
        let uri: String
        do { uri = try MediaLocation.uri(for: location) } catch { throw CoverArtError(message: error.message) }
        let nanoseconds = GstClockTime(max(1, timeout.components.seconds)) * CGStreamer_SECOND()
        var error: UnsafeMutablePointer<GError>?
        guard let discoverer = gst_discoverer_new(nanoseconds, &error) else {
            throw CoverArtError(message: "cannot make a discoverer: \(takeMessage(&error) ?? "unknown error")")
        }
        defer { g_object_unref(UnsafeMutableRawPointer(discoverer)) }
        let info = gst_discoverer_discover_uri(discoverer, uri, &error)
        defer { if let info { g_object_unref(UnsafeMutableRawPointer(info)) } }
        let message = takeMessage(&error)
        guard let info else { throw CoverArtError(message: message ?? "cannot read the media") }
        switch gst_discoverer_info_get_result(info) {
        case GST_DISCOVERER_OK: break
        case GST_DISCOVERER_TIMEOUT: throw CoverArtError(message: "reading the media timed out")
        case GST_DISCOVERER_MISSING_PLUGINS: throw CoverArtError(message: message ?? "a GStreamer plugin is missing to read the media")
        default: throw CoverArtError(message: message ?? "cannot read the media")
        }
        return picture(of: info)
    }

    /// The picture among the top-level stream's tags, then among every stream's.
    private static func picture(of info: OpaquePointer) -> CoverArt? {
        if let top = gst_discoverer_info_get_stream_info(info) {
            defer { g_object_unref(UnsafeMutableRawPointer(top)) }
            if let art = picture(inStream: top) { return art }
        }
        let list = gst_discoverer_info_get_stream_list(info)
        defer { gst_discoverer_stream_info_list_free(list) }
        var node = list
        while let current = node {
            if let data = current.pointee.data, let art = picture(inStream: OpaquePointer(data)) { return art }
            node = current.pointee.next
        }
        return nil
    }

    private static func picture(inStream stream: OpaquePointer) -> CoverArt? {
        guard let tags = gst_discoverer_stream_info_get_tags(stream) else { return nil }
        return TagReader.coverArt(in: UnsafeMutablePointer(mutating: tags))
    }

    private static func takeMessage(_ error: inout UnsafeMutablePointer<GError>?) -> String? {
        guard let current = error else { return nil }
        defer { g_error_free(current); error = nil }
        return String(cString: current.pointee.message)
    }
}
