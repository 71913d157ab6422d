import BackendCore
import CGStreamer
import GLibSupport

/// Shows one tile of a video wall (``VideoWall``, `gstplay --wall`): a `videocrop` in the video
/// filter slot (`ExtensionOrder/videoWall`, before the window's own crop) cut to the tile.
///
/// The crop is computed on the streaming thread from each CAPS event that reaches the crop (a
/// probe on its sink pad, which runs before `videocrop` handles the event), so the very first
/// frame is already the tile (the sink's window opens at the tile's size) and a media size change
/// (a new item, an adaptive stream's new variant) is followed at once. A `mediaSize` event would
/// come later, from the loop thread, after the first frames went through uncropped.
///
/// No Xlib: it works with every video sink (also headless, where a test reads the cropped caps).
/// **Thread:** loop thread (`PlayerFeature`); the probe, streaming threads.
public final class VideoWallFeature: PlayerFeature {
    private let wall: VideoWall
    /// The `videocrop` (our reference), nil before attach or when the plugin is missing.
    private var crop: UnsafeMutablePointer<GstElement>?

    /// A feature showing tile `wall`.
    public init(wall: VideoWall) { self.wall = wall }

    /// Adds the crop to the video filter slot and watches the caps reaching it.
    public func attach(to context: FeatureContext) {
        guard context.video.sink != nil, let element = gst_element_factory_make("videocrop", "gstplay-wall-crop") else { return }
        _ = gst_object_ref(UnsafeMutableRawPointer(element))   // ours; the floating one goes to the filter chain
        crop = element
        if let pad = gst_element_get_static_pad(element, "sink") {
            _ = gst_pad_add_probe(pad, GST_PAD_PROBE_TYPE_EVENT_DOWNSTREAM, { pad, info, data in
                guard let pad, let info, let data, let event = CGStreamer_probe_info_event(info),
                      CGStreamer_event_type(event) == GST_EVENT_CAPS else { return GST_PAD_PROBE_OK }
                var caps: UnsafeMutablePointer<GstCaps>?
                gst_event_parse_caps(event, &caps)
                var width: gint = 0, height: gint = 0, parN: gint = 1, parD: gint = 1
                guard let caps, CGStreamer_video_caps_size(caps, &width, &height, &parN, &parD) != 0,
                      let element = gst_pad_get_parent_element(pad) else { return GST_PAD_PROBE_OK }
                defer { gst_object_unref(UnsafeMutableRawPointer(element)) }
                let wall = CallbackBox<VideoWall>.from(data).value
                VideoWallFeature.apply(wall.crop(codedWidth: Int(width), height: Int(height)), to: element)
                return GST_PAD_PROBE_OK
            }, CallbackBox(wall).retainedPointer, callbackBoxRelease)
            gst_object_unref(UnsafeMutableRawPointer(pad))
        }
        context.video.addFilter(element, order: .videoWall)
    }

    /// Drops the crop reference.
    public func teardown() {
        if let crop { gst_object_unref(UnsafeMutableRawPointer(crop)) }
        crop = nil
    }

    /// Sets `videocrop`'s four sides (it renegotiates on its own when they change).
    private static func apply(_ value: VideoCrop, to element: UnsafeMutablePointer<GstElement>) {
        let object = UnsafeMutableRawPointer(element)
        CGStreamer_set_int(object, "left", gint(clamping: value.left))
        CGStreamer_set_int(object, "right", gint(clamping: value.right))
        CGStreamer_set_int(object, "top", gint(clamping: value.top))
        CGStreamer_set_int(object, "bottom", gint(clamping: value.bottom))
    }
}

public extension ExtensionOrder {
    /// The video wall's crop among the video filters: first, before the window's fill crop
    /// (``videoWindow``), so gravity applies to the tile.
    static let videoWall = ExtensionOrder(390)
}
