import BackendCore
import CGStreamer
import GLibSupport
import Synchronization

/// The GStreamer pipeline behind ``ContactSheet``. Blocking; one thread from init to close.
final class SheetPipeline {
    // Every stored property has a value before the first `throw`, so `deinit` (and `close`)
    // also run when building fails half-way.
    private var pipeline: UnsafeMutablePointer<GstElement>?
    private var sink: UnsafeMutablePointer<GstElement>?
    private let layout: ContactSheet.Layout
    private let tileCount: Int
    /// How many tiles have reached the compositor with a decoded frame (a junk tile decodes
    /// to nothing and would silently leave its cell empty).
    private let decodedTiles = CallbackBox(TileCounter())

    /// Builds `compositor ! capsfilter ! videoconvert ! pngenc ! fakesink`, a background and
    /// one `appsrc ! pngdec|jpegdec [! videoconvert ! textoverlay]` branch per tile, and queues
    /// each tile's bytes on its `appsrc` followed by end-of-stream.
    init(layout: ContactSheet.Layout, tiles: [ContactSheet.Tile]) throws(ImageError) {
        self.layout = layout
        self.tileCount = tiles.count
        guard let pipeline = gst_pipeline_new("contact-sheet") else { throw Self.missing("pipeline") }
        _ = gst_object_ref_sink(UnsafeMutableRawPointer(pipeline))
        self.pipeline = pipeline
        let bin = CGStreamer_as_bin(UnsafeMutableRawPointer(pipeline))
        func make(_ factory: String) throws(ImageError) -> UnsafeMutablePointer<GstElement> {
            guard let element = gst_element_factory_make(factory, nil) else { throw Self.missing(factory) }
            gst_bin_add(bin, element)
            return element
        }
        func link(_ chain: [UnsafeMutablePointer<GstElement>]) throws(ImageError) {
            for (a, b) in zip(chain, chain.dropFirst()) where gst_element_link(a, b) == 0 {
                throw ImageError(kind: .conversion, message: "cannot link the contact-sheet pipeline")
            }
        }
        let compositor = try make("compositor")
        CGStreamer_set_from_string(UnsafeMutableRawPointer(compositor), "background", "black")
        let filter = try make("capsfilter")
        // RGB throughout (what pngdec gives and pngenc takes): the compositor then blends the
        // tiles without a per-tile colour conversion, about half the CPU of its default format.
        if let caps = gst_caps_from_string("video/x-raw, format=RGB, width=(int)\(layout.width), height=(int)\(layout.height)") {
            CGStreamer_set_object(UnsafeMutableRawPointer(filter), "caps", UnsafeMutableRawPointer(caps))
            gst_caps_unref(caps)
        }
        let convert = try make("videoconvert")
        let encoder = try make("pngenc")
        CGStreamer_set_boolean(UnsafeMutableRawPointer(encoder), "snapshot", 1)
        let sink = try make("fakesink")
        self.sink = sink
        CGStreamer_set_boolean(UnsafeMutableRawPointer(sink), "sync", 0)
        CGStreamer_set_boolean(UnsafeMutableRawPointer(sink), "enable-last-sample", 1)
        try link([compositor, filter, convert, encoder, sink])

        // The sheet's background (the gaps between tiles): one dark grey frame at the bottom.
        let background = try make("videotestsrc")
        CGStreamer_set_from_string(UnsafeMutableRawPointer(background), "pattern", "solid-color")
        CGStreamer_set_uint(UnsafeMutableRawPointer(background), "foreground-color", SheetPipeline.backgroundARGB)
        CGStreamer_set_int(UnsafeMutableRawPointer(background), "num-buffers", 1)
        let backgroundCaps = try make("capsfilter")
        if let caps = gst_caps_from_string("video/x-raw, format=RGB, width=(int)\(layout.width), height=(int)\(layout.height), framerate=(fraction)0/1") {
            CGStreamer_set_object(UnsafeMutableRawPointer(backgroundCaps), "caps", UnsafeMutableRawPointer(caps))
            gst_caps_unref(caps)
        }
        try link([background, backgroundCaps, compositor])

        let widest = tiles.map(\.image.width).max() ?? 0
        for (index, tile) in tiles.enumerated() {
            let source = try make("appsrc")
            if let caps = gst_caps_from_string(tile.image.format.mediaType) {
                CGStreamer_set_object(UnsafeMutableRawPointer(source), "caps", UnsafeMutableRawPointer(caps))
                gst_caps_unref(caps)
            }
            var branch = [source, try make(tile.image.format == .png ? "pngdec" : "jpegdec")]
            if let caption = tile.caption {
                branch.append(try make("videoconvert"))
                let overlay = try make("textoverlay")
                CGStreamer_set_string(UnsafeMutableRawPointer(overlay), "text", caption)
                CaptionStyle.apply(to: overlay, width: widest)
                branch.append(overlay)
            }
            try link(branch)
            guard let pad = gst_element_request_pad_simple(compositor, "sink_%u"),
                  let output = gst_element_get_static_pad(branch[branch.count - 1], "src") else { throw Self.missing("compositor pad") }
            CGStreamer_set_int(UnsafeMutableRawPointer(pad), "xpos", gint(layout.origins[index].x))
            CGStreamer_set_int(UnsafeMutableRawPointer(pad), "ypos", gint(layout.origins[index].y))
            let linked = gst_pad_link(output, pad)
            // Counts the tile's first decoded frame, then removes itself (streaming thread).
            gst_pad_add_probe(output, GST_PAD_PROBE_TYPE_BUFFER, { _, _, data in
                CallbackBox<TileCounter>.from(data!).value.count.add(1, ordering: .relaxed)
                return GST_PAD_PROBE_REMOVE
            }, decodedTiles.retainedPointer, callbackBoxRelease)
            gst_object_unref(UnsafeMutableRawPointer(output))
            gst_object_unref(UnsafeMutableRawPointer(pad)) // the compositor keeps its own reference
            guard linked == GST_PAD_LINK_OK else { throw ImageError(kind: .conversion, message: "cannot link tile \(index)") }
            let bytes = tile.image.bytes
            let buffer = bytes.withUnsafeBytes { gst_buffer_new_memdup($0.baseAddress, gsize($0.count)) }
            guard let buffer else { throw ImageError(kind: .conversion, message: "cannot copy tile \(index)") }
            _ = CGStreamer_appsrc_push_buffer(source, buffer)
            gst_buffer_unref(buffer)
            _ = CGStreamer_appsrc_end_of_stream(source)
        }
    }

    /// The colour between tiles (ARGB, `videotestsrc foreground-color`): dark grey.
    static let backgroundARGB: UInt32 = 0xFF40_4040

    deinit { close() }

    /// Plays the pipeline to EOS and returns the encoded sheet (the sink's `last-sample`).
    func run(timeout: Duration) throws(ImageError) -> Image {
        guard let pipeline else { throw ImageError(kind: .conversion, message: "pipeline closed") }
        guard gst_element_set_state(pipeline, GST_STATE_PLAYING) != GST_STATE_CHANGE_FAILURE else {
            throw ImageError(kind: .conversion, message: "the contact-sheet pipeline does not start")
        }
        let bus = gst_element_get_bus(pipeline)!
        defer { gst_object_unref(UnsafeMutableRawPointer(bus)) }
        while true {
            switch BusWait.next(on: bus, timeout: timeout, uri: nil, isCancelled: { false }) {
            case .asyncDone: continue
            case .endOfStream: break
            case .error(let error):
                throw ImageError(kind: .conversion, message: "contact sheet: \(error.description)", underlying: error)
            case .timedOut, .cancelled:
                throw ImageError(kind: .timeout, message: "the contact sheet was not finished within \(timeout)")
            }
            break
        }
        let decoded = decodedTiles.value.count.load(ordering: .relaxed)
        guard decoded == tileCount else {
            throw ImageError(kind: .conversion, message: "\(tileCount - decoded) of \(tileCount) tiles could not be decoded")
        }
        guard let sink, let raw = CGStreamer_get_object(UnsafeMutableRawPointer(sink), "last-sample") else {
            throw ImageError(kind: .conversion, message: "the contact-sheet pipeline produced nothing")
        }
        let sample = OpaquePointer(raw)
        defer { gst_sample_unref(sample) }
        return try FrameEncoder.image(fromEncoded: sample, format: .png, width: layout.width, height: layout.height)
    }

    /// Pipeline to NULL and released. Idempotent.
    func close() {
        guard let pipeline else { return }
        self.pipeline = nil
        gst_element_set_state(pipeline, GST_STATE_NULL)
        gst_object_unref(UnsafeMutableRawPointer(pipeline))
    }

    private static func missing(_ what: String) -> ImageError {
        ImageError(kind: .conversion, message: "cannot create \(what) (GStreamer plugins missing?)")
    }
}

/// A counter bumped from streaming threads.
final class TileCounter: Sendable {
    let count = Atomic<Int>(0)
}
