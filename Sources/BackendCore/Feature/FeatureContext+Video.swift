import CGStreamer

/// The video side of the pipeline as a feature may use it (``FeatureContext/video``): the sink,
/// the filter and overlay slots (extension points with an ``ExtensionOrder``; the engine chains
/// them in Engine+VideoFilters.swift), and the picture under the overlays. **Thread:** loop thread.
public struct FeatureVideo {
    unowned let context: FeatureContext
    private var engine: Engine { context.engine }

    /// The video sink (nil when video is disabled), borrowed.
    public var sink: UnsafeMutablePointer<GstElement>? { engine.sinks.video }

    /// Whether the video sink draws into a window: it, or an element of its bin, implements
    /// `GstVideoOverlay` (`gst_bin_get_by_interface`); false for fake and disabled sinks. A feature
    /// that draws on the picture (subtitles, an on-screen display) is only worth its cost then.
    public var sinkDrawsIntoWindow: Bool {
        guard let sink else { return false }
        let object = UnsafeMutableRawPointer(sink)
        let overlayType = gst_video_overlay_get_type()
        if g_type_check_instance_is_a(object.assumingMemoryBound(to: GTypeInstance.self), overlayType) != 0 { return true }
        guard CGStreamer_is_bin(object) != 0, let found = gst_bin_get_by_interface(CGStreamer_as_bin(object), overlayType) else { return false }
        gst_object_unref(UnsafeMutableRawPointer(found))
        return true
    }

    /// Adds `element` to the chain of video filters in playbin's `video-filter`, at `order` among
    /// the filters: before the overlays, the subtitle overlay and the sink, so whatever it does is
    /// seen with every video sink. From ``PlayerFeature/attach(to:)`` only (the chain is built
    /// once every feature attached); a floating `element` goes to the chain, else the feature
    /// keeps its own reference (the chain takes one of its own). Ignored when video is disabled.
    public func addFilter(_ element: UnsafeMutablePointer<GstElement>, order: ExtensionOrder) {
        context.extensions.add(videoFilter: element, order: order)
    }

    /// Adds `element` to the video filter chain after every filter (``addFilter(_:order:)``), at
    /// `order` among the overlays: something drawn on the picture (an on-screen display) that
    /// snapshots can leave out (``sampleUnderOverlays(matching:)``). From
    /// ``PlayerFeature/attach(to:)`` only, as for the filters.
    public func addOverlay(_ element: UnsafeMutablePointer<GstElement>, order: ExtensionOrder) {
        context.extensions.add(videoOverlay: element, order: order)
    }

    /// The frame in `shown` (a sample the video sink holds, `playbin.sample`) as it was before the
    /// overlays drew on it, as a new `GstSample` the caller unrefs (`gst_sample_unref`); nil when
    /// no overlay was added or the frame is no longer kept (then `shown` has no overlay of ours
    /// either, or the caller must take it as it is).
    public func sampleUnderOverlays(matching shown: OpaquePointer) -> OpaquePointer? {
        context.framesUnderOverlays?.sample(matching: shown)
    }

    /// Says whether an overlay added with ``addOverlay(_:order:)`` draws now (the OSD shows):
    /// frames for ``sampleUnderOverlays(matching:)`` are kept only meanwhile, so no decoder
    /// buffer is held while nothing is drawn.
    public func setOverlaysDrawing(_ drawing: Bool) { context.framesUnderOverlays?.setKeeping(drawing) }

    /// Draws the paused picture again, so that an overlay's new text (``addOverlay(_:order:)``)
    /// shows while paused: a flushing seek to the position now, not reported (no `seeking` state,
    /// no seek-done). Does nothing unless the player rests paused (not seeking, buffering, ended,
    /// live or routed); requests made while one runs are folded into one more.
    public func redrawPausedFrame() { engine.redrawPausedFrame() }
}
