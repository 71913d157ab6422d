import BackendCore
import CGStreamer

/// Decodes a ``CoverArt`` to raw video (`BGRA`, square pixels) with a private pipeline,
/// `appsrc ! decodebin ! videoconvert ! videoscale ! capsfilter ! fakesink`, run to its end
/// (`gst_bus_timed_pop_filtered`, 5 s at most), whose sink keeps the frame (`last-sample`).
/// **Thread:** any but a player's loop thread: it blocks while the picture decodes.
enum CoverArtDecoder {
    /// A decoded picture: a new sample reference the caller unrefs, and its size.
    struct Raw {
        let sample: OpaquePointer
        let width: Int
        let height: Int
    }

    /// The picture as `video/x-raw, format=BGRA`, at its own size or scaled down to fit
    /// `maxSide` × `maxSide` (aspect kept).
    static func decode(_ art: CoverArt, maxSide: Int? = nil) throws(CoverArtError) -> Raw {
        GStreamerRuntime.ensureInitialized()
        let description = "appsrc name=src ! decodebin ! videoconvert ! videoscale ! capsfilter caps=video/x-raw,format=BGRA,pixel-aspect-ratio=1/1 ! fakesink name=sink sync=false enable-last-sample=true"
        var error: UnsafeMutablePointer<GError>?
        guard let pipeline = gst_parse_launch(description, &error) else {
            if error != nil { g_error_free(error) }
            throw CoverArtError(message: "cannot build the picture decoder (decodebin, videoconvert, videoscale)")
        }
        if error != nil { g_error_free(error) }
        defer {
            gst_element_set_state(pipeline, GST_STATE_NULL)
            gst_object_unref(UnsafeMutableRawPointer(pipeline))
        }
        let bin = CGStreamer_as_bin(UnsafeMutableRawPointer(pipeline))
        guard let source = gst_bin_get_by_name(bin, "src"), let sink = gst_bin_get_by_name(bin, "sink") else {
            throw CoverArtError(message: "cannot build the picture decoder")
        }
        defer { gst_object_unref(UnsafeMutableRawPointer(source)); gst_object_unref(UnsafeMutableRawPointer(sink)) }
        if let caps = gst_caps_from_string(art.mimeType) {
            CGStreamer_set_object(UnsafeMutableRawPointer(source), "caps", UnsafeMutableRawPointer(caps))
            gst_caps_unref(caps)
        }
        let bytes = art.bytes
        guard let buffer = gst_buffer_new_allocate(nil, gsize(bytes.count), nil) else { throw CoverArtError(message: "out of memory") }
        _ = bytes.withUnsafeBytes { gst_buffer_fill(buffer, 0, $0.baseAddress, gsize(bytes.count)) }
        _ = CGStreamer_appsrc_push_buffer(source, buffer)
        gst_buffer_unref(buffer)
        _ = CGStreamer_appsrc_end_of_stream(source)
        gst_element_set_state(pipeline, GST_STATE_PLAYING)
        try waitForEnd(of: pipeline)
        guard let sample = CGStreamer_get_object(UnsafeMutableRawPointer(sink), "last-sample").map(OpaquePointer.init),
              let caps = gst_sample_get_caps(sample) else {
            throw CoverArtError(message: "the \(art.mimeType) picture decoded to nothing")
        }
        var width: gint = 0, height: gint = 0, parN: gint = 1, parD: gint = 1
        guard CGStreamer_video_caps_size(caps, &width, &height, &parN, &parD) != 0 else {
            gst_sample_unref(sample)
            throw CoverArtError(message: "the \(art.mimeType) picture decoded to an unknown size")
        }
        let raw = Raw(sample: sample, width: Int(width), height: Int(height))
        guard let maxSide, max(raw.width, raw.height) > maxSide else { return raw }
        defer { gst_sample_unref(sample) }
        return try scaled(raw, toFit: maxSide)
    }

    /// `raw` scaled down to fit `side` × `side` (`gst_video_convert_sample`).
    private static func scaled(_ raw: Raw, toFit side: Int) throws(CoverArtError) -> Raw {
        let scale = Double(side) / Double(max(raw.width, raw.height))
        let width = max(1, Int((Double(raw.width) * scale).rounded())), height = max(1, Int((Double(raw.height) * scale).rounded()))
        let caps = gst_caps_from_string("video/x-raw,format=BGRA,width=\(width),height=\(height),pixel-aspect-ratio=1/1")
        defer { gst_caps_unref(caps) }
        var error: UnsafeMutablePointer<GError>?
        guard let sample = gst_video_convert_sample(raw.sample, caps, 5 * CGStreamer_SECOND(), &error) else {
            if error != nil { g_error_free(error) }
            throw CoverArtError(message: "could not scale the picture")
        }
        return Raw(sample: sample, width: width, height: height)
    }

    /// Waits for EOS or an error on the pipeline's bus (5 s at most).
    private static func waitForEnd(of pipeline: UnsafeMutablePointer<GstElement>) throws(CoverArtError) {
        guard let bus = gst_element_get_bus(pipeline) else { throw CoverArtError(message: "the picture decoder has no bus") }
        defer { gst_object_unref(UnsafeMutableRawPointer(bus)) }
        let types = GstMessageType(rawValue: GST_MESSAGE_EOS.rawValue | GST_MESSAGE_ERROR.rawValue)
        guard let message = gst_bus_timed_pop_filtered(bus, 5 * CGStreamer_SECOND(), types) else {
            throw CoverArtError(message: "the picture did not decode within 5 s")
        }
        defer { gst_message_unref(message) }
        guard CGStreamer_message_type(message) == GST_MESSAGE_EOS else {
            var gerror: UnsafeMutablePointer<GError>?
            gst_message_parse_error(message, &gerror, nil)
            let text = gerror.map { String(cString: $0.pointee.message) } ?? "unknown error"
            if gerror != nil { g_error_free(gerror) }
            throw CoverArtError(message: "the picture does not decode: \(text)")
        }
    }
}
