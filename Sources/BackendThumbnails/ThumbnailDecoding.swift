import BackendCore
import CGStreamer

/// What a thumbnail pipeline lets `playbin` decode (measured in docs/BENCHMARKS.md):
///
/// - **Video only.** playbin without its `audio` flag still auto-plugs and runs an audio decoder
///   for every audio stream (`avdec_aac` for an MP4's AAC) and throws the samples away. Each
///   `decodebin` playbin sets up (`element-setup`) gets an `autoplug-continue` handler that stops
///   at audio and subtitle caps, so those streams stay compressed and nothing decodes them.
/// - **Never `openh264dec` where it cannot decode.** ``ThumbnailGenerator/preferLightDecoders()``
///   ranks `openh264dec` above gst-libav's `avdec_h264` (gst-libav registers an element per FFmpeg
///   codec when it loads: ~50 ms of CPU here, more than decoding one frame). An `autoplug-select`
///   handler then skips `openh264dec` for H.264 it does not handle (interlaced, not 8-bit 4:2:0,
///   another profile), so `avdec_h264`, next in rank, decodes those.
///
/// The handlers carry no state (no `user_data`); they run on streaming threads and live as long
/// as the decodebins. The `element-setup` handler is disconnected by ``disconnect(from:)``.
enum ThumbnailDecoding {
    /// `GstAutoplugSelectResult` (decodebin's header is not installed): try, expose, skip.
    private static let selectTry: gint = 0, selectSkip: gint = 2

    /// Connects `element-setup` on `playbin` (`g_signal_connect_data`); returns the handler id.
    static func attach(to playbin: UnsafeMutablePointer<GstElement>) -> gulong {
        g_signal_connect_data(UnsafeMutableRawPointer(playbin), "element-setup",
                              unsafeBitCast(elementSetup, to: GCallback.self), nil, nil, GConnectFlags(0))
    }

    /// Ranks `openh264dec` just above `avdec_h264` in this process (`gst_plugin_feature_set_rank`;
    /// the registry cache is untouched). Returns false when either is missing.
    static func preferOpenH264() -> Bool {
        guard let registry = gst_registry_get(),
              let light = gst_registry_lookup_feature(registry, "openh264dec") else { return false }
        defer { gst_object_unref(UnsafeMutableRawPointer(light)) }
        guard let libav = gst_registry_lookup_feature(registry, "avdec_h264") else { return false }
        let rank = gst_plugin_feature_get_rank(libav) + 1
        gst_object_unref(UnsafeMutableRawPointer(libav))
        gst_plugin_feature_set_rank(light, rank)
        return true
    }

    /// Removes the `element-setup` handler (`g_signal_handler_disconnect`).
    static func disconnect(_ id: gulong, from playbin: UnsafeMutablePointer<GstElement>) {
        if id != 0 { g_signal_handler_disconnect(UnsafeMutableRawPointer(playbin), id) }
    }

    /// The factory name of `element` (`gst_element_get_factory`), or nil.
    private static func factoryName(_ element: UnsafeMutableRawPointer) -> String? {
        guard let factory = gst_element_get_factory(element.assumingMemoryBound(to: GstElement.self)) else { return nil }
        return String(takingGLibString: gst_object_get_name(CGStreamer_as_object(UnsafeMutableRawPointer(factory))))
    }

    /// `element-setup` (playbin, element), streaming or application thread: the handlers on
    /// each decodebin.
    private static let elementSetup: @convention(c) (gpointer?, gpointer?, gpointer?) -> Void = { _, element, _ in
        guard let element, factoryName(element) == "decodebin" else { return }
        _ = g_signal_connect_data(element, "autoplug-continue", unsafeBitCast(stopAtAudio, to: GCallback.self), nil, nil, GConnectFlags(0))
        _ = g_signal_connect_data(element, "autoplug-select", unsafeBitCast(skipOpenH264, to: GCallback.self), nil, nil, GConnectFlags(0))
    }

    /// `autoplug-continue` (decodebin, pad, caps): false (expose as it is) for audio and subtitles.
    private static let stopAtAudio: @convention(c) (gpointer?, gpointer?, UnsafeMutablePointer<GstCaps>?, gpointer?) -> gboolean = { _, _, caps, _ in
        guard let caps, let structure = gst_caps_get_structure(caps, 0), let name = gst_structure_get_name(structure) else { return 1 }
        let type = String(cString: name)
        return type.hasPrefix("audio/") || type.hasPrefix("text/") || type.hasPrefix("subpicture/") ? 0 : 1
    }

    /// `autoplug-select` (decodebin, pad, caps, factory): skip `openh264dec` where it cannot decode.
    private static let skipOpenH264: @convention(c) (gpointer?, gpointer?, UnsafeMutablePointer<GstCaps>?, gpointer?, gpointer?) -> gint = { _, _, caps, factory, _ in
        guard let caps, let factory, factoryName(factory: factory) == "openh264dec", !openH264Decodes(caps) else { return selectTry }
        return selectSkip
    }

    private static func factoryName(factory: gpointer) -> String? {
        String(takingGLibString: gst_object_get_name(CGStreamer_as_object(factory)))
    }

    /// True for parsed H.264 caps `openh264dec` decodes: progressive, 8-bit, 4:2:0, a profile of
    /// its sink template (fields h264parse sets; a missing field counts as the common case).
    static func openH264Decodes(_ caps: UnsafeMutablePointer<GstCaps>) -> Bool {
        guard let structure = gst_caps_get_structure(caps, 0) else { return false }
        func text(_ field: String) -> String? { gst_structure_get_string(structure, field).map { String(cString: $0) } }
        if let mode = text("interlace-mode"), mode != "progressive" { return false }
        if let chroma = text("chroma-format"), chroma != "4:2:0" { return false }
        var depth: guint = 8
        if gst_structure_get_uint(structure, "bit-depth-luma", &depth) != 0, depth != 8 { return false }
        let profiles: Set<String> = ["constrained-baseline", "baseline", "main", "high", "constrained-high", "progressive-high"]
        return text("profile").map(profiles.contains) ?? true
    }
}
