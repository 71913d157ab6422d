import BackendCore
import CGStreamer

/// The video sink of a ``ThumbnailPipeline``: a bin `videoscale ! capsfilter ! videoconvert
/// [! videoanalyse ! videoconvert] [! textoverlay ! videoconvert] ! pngenc|jpegenc ! fakesink` whose fakesink keeps the last
/// encoded frame (`last-sample`); for raw frames (a nil format: ``ThumbnailTrack``'s pictures,
/// drawn over video as they are) a `capsfilter` to `BGRA` takes the encoder's place. The optional `textoverlay` writes each frame's own time on it
/// (set from a pad probe on the frame that passes, so it is the time actually shown).
/// Scaling and encoding happen in the pipeline itself, once per prerolled frame, instead of a
/// new conversion pipeline per frame (`gst_video_convert_sample`).
///
/// **Thread:** the worker thread that owns the pipeline.
final class EncodingSink {
    /// The bin (a new reference; playbin takes its own when set as `video-sink`).
    let bin: UnsafeMutablePointer<GstElement>
    private let filter: UnsafeMutablePointer<GstElement>
    private let sink: UnsafeMutablePointer<GstElement>
    private let overlay: UnsafeMutablePointer<GstElement>?

    /// Builds the bin and its ghost `sink` pad. Throws `.open` when an element is missing.
    /// `analyses` adds `videoanalyse` (plugins-bad) after the scaling: it posts each frame's
    /// luma average and variance on the bus (``ThumbnailPipeline/lastLumaVariance``).
    /// `format` nil: raw `BGRA` frames instead of encoded ones.
    init(format: ImageFormat?, burnsInTime: Bool, analyses: Bool = false) throws(ImageError) {
        guard let bin = gst_bin_new("thumbnail-encoder") else { throw Self.missing("bin") }
        _ = gst_object_ref_sink(UnsafeMutableRawPointer(bin))
        let container = CGStreamer_as_bin(UnsafeMutableRawPointer(bin))
        var chain: [UnsafeMutablePointer<GstElement>] = []
        let caption = burnsInTime ? ["textoverlay", "videoconvert"] : []
        let analysis = analyses ? ["videoanalyse", "videoconvert"] : []
        for factory in ["videoscale", "capsfilter", "videoconvert"] + analysis + caption + [format.map { $0 == .png ? "pngenc" : "jpegenc" } ?? "capsfilter", "fakesink"] {
            guard let element = gst_element_factory_make(factory, nil) else {
                gst_object_unref(UnsafeMutableRawPointer(bin))
                throw Self.missing(factory)
            }
            gst_bin_add(container, element)
            chain.append(element)
        }
        // From here on every property is set, so `deinit` releases the bin on a later throw.
        self.bin = bin
        filter = chain[1]
        sink = chain[chain.count - 1]
        overlay = burnsInTime ? chain[3 + analysis.count] : nil
        if format == nil, let caps = gst_caps_from_string("video/x-raw, format=(string)BGRA") {
            CGStreamer_set_object(UnsafeMutableRawPointer(chain[chain.count - 2]), "caps", UnsafeMutableRawPointer(caps))
            gst_caps_unref(caps)
        }
        CGStreamer_set_boolean(UnsafeMutableRawPointer(sink), "sync", 0)
        CGStreamer_set_boolean(UnsafeMutableRawPointer(sink), "enable-last-sample", 1)
        // The frame that opens the pipeline only tells the size (``rawFrameInfo()``): a tiny
        // picture until ``setOutputSize(width:height:)``, not a full-size PNG.
        if let caps = gst_caps_from_string("video/x-raw, width=(int)16, height=(int)16, pixel-aspect-ratio=(fraction)1/1") {
            CGStreamer_set_object(UnsafeMutableRawPointer(filter), "caps", UnsafeMutableRawPointer(caps))
            gst_caps_unref(caps)
        }
        for (a, b) in zip(chain, chain.dropFirst()) where gst_element_link(a, b) == 0 {
            throw ImageError(kind: .open, message: "cannot link the thumbnail encoder")
        }
        guard let target = gst_element_get_static_pad(chain[0], "sink") else { throw Self.missing("videoscale pad") }
        defer { gst_object_unref(UnsafeMutableRawPointer(target)) }
        guard let ghost = gst_ghost_pad_new("sink", target), gst_element_add_pad(bin, ghost) != 0 else {
            throw Self.missing("ghost pad")
        }
        if let overlay { Self.captionEachFrame(overlay) }
    }

    /// Sets the overlay's text to the stream time of each frame reaching it (a buffer probe on
    /// its `video_sink` pad; streaming thread; `g_object_set` is thread-safe).
    private static func captionEachFrame(_ overlay: UnsafeMutablePointer<GstElement>) {
        guard let pad = gst_element_get_static_pad(overlay, "video_sink") else { return }
        defer { gst_object_unref(UnsafeMutableRawPointer(pad)) }
        gst_pad_add_probe(pad, GST_PAD_PROBE_TYPE_BUFFER, { pad, info, _ in
            guard let pad, let data = info?.pointee.data,
                  let event = gst_pad_get_sticky_event(pad, GST_EVENT_SEGMENT, 0) else { return GST_PAD_PROBE_OK }
            defer { gst_event_unref(event) }
            var segment: UnsafePointer<GstSegment>?
            gst_event_parse_segment(event, &segment)
            let caps = gst_pad_get_current_caps(pad)
            defer { if let caps { gst_caps_unref(caps) } }
            guard let segment, let time = FrameEncoder.streamTime(of: data.assumingMemoryBound(to: GstBuffer.self), in: segment, caps: caps),
                  let parent = gst_pad_get_parent_element(pad) else { return GST_PAD_PROBE_OK }
            CGStreamer_set_string(UnsafeMutableRawPointer(parent), "text", CaptionStyle.text(for: time))
            gst_object_unref(UnsafeMutableRawPointer(parent))
            return GST_PAD_PROBE_OK
        }, nil, nil)
    }

    deinit { gst_object_unref(UnsafeMutableRawPointer(bin)) }

    /// Coded size and PAR of the raw frames arriving (the ghost pad's current caps).
    func rawFrameInfo() -> FrameEncoder.FrameInfo? {
        guard let pad = gst_element_get_static_pad(bin, "sink") else { return nil }
        defer { gst_object_unref(UnsafeMutableRawPointer(pad)) }
        guard let caps = gst_pad_get_current_caps(pad) else { return nil }
        defer { gst_caps_unref(caps) }
        var width: gint = 0, height: gint = 0, parN: gint = 1, parD: gint = 1
        guard CGStreamer_video_caps_size(caps, &width, &height, &parN, &parD) != 0, width > 0, height > 0 else { return nil }
        return FrameEncoder.FrameInfo(width: Int(width), height: Int(height), parNumerator: Int(parN), parDenominator: Int(parD))
    }

    /// Scales the following frames to `width × height` square pixels (the capsfilter's caps;
    /// applied at the next frame, e.g. after a flushing seek).
    func setOutputSize(width: Int, height: Int) {
        guard let caps = gst_caps_from_string("video/x-raw, width=(int)\(width), height=(int)\(height), pixel-aspect-ratio=(fraction)1/1") else { return }
        CGStreamer_set_object(UnsafeMutableRawPointer(filter), "caps", UnsafeMutableRawPointer(caps))
        gst_caps_unref(caps)
        if let overlay { CaptionStyle.apply(to: overlay, width: width) }
    }

    /// The last encoded frame (`last-sample`, a new reference the caller unrefs), or nil.
    func lastSample() -> OpaquePointer? {
        CGStreamer_get_object(UnsafeMutableRawPointer(sink), "last-sample").map(OpaquePointer.init)
    }

    private static func missing(_ what: String) -> ImageError {
        ImageError(kind: .open, message: "cannot create \(what) (GStreamer base/good plugins missing?)")
    }
}
