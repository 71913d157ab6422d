import CGStreamer
import GLibSupport

/// Media size (loop thread): read at preroll and whenever the video sink's caps change.
extension Engine {
    /// `notify::caps` on the video sink's sink pad: the media size, also mid-stream. The handler
    /// runs on a streaming thread, reads the caps there and hands the size to the loop thread.
    func connectMediaSizeSignal() {
        // With a video filter installed (a feature's, e.g. a crop), its sink pad carries the stream's own size.
        let filter = videoFilter()
        defer { if let filter { gst_object_unref(UnsafeMutableRawPointer(filter)) } }
        guard let pipeline, let video = filter ?? sinks.video, let pad = gst_element_get_static_pad(video, "sink") else { return }
        defer { gst_object_unref(UnsafeMutableRawPointer(pad)) }
        let box = CallbackBox<(MainLoopThread, Engine)>((loop, self))
        let padObject = UnsafeMutableRawPointer(pad)
        let id = CGStreamer_signal_connect_2(padObject, "notify::caps", { instance, _, data in
            guard let instance, let data else { return }
            let (loop, engine) = CallbackBox<(MainLoopThread, Engine)>.from(data).value
            guard let size = SinkSet.videoSize(of: instance.assumingMemoryBound(to: GstPad.self)) else { return }
            loop.invoke { [weak engine] in engine?.mediaSizeChanged(size) }
        }, box.retainedPointer, callbackBoxClosureRelease)
        // The pad belongs to the sink the SinkSet holds; teardown disconnects before releasing it.
        pipeline.track(handler: id, on: padObject)
    }

    /// Reads the size at preroll (the seed's `check_media_size`).
    func checkMediaSize() {
        let filter = videoFilter()
        defer { if let filter { gst_object_unref(UnsafeMutableRawPointer(filter)) } }
        if let filter, let pad = gst_element_get_static_pad(filter, "sink") {
            defer { gst_object_unref(UnsafeMutableRawPointer(pad)) }
            if let size = SinkSet.videoSize(of: pad) { mediaSizeChanged(size) }
        } else if let size = sinks.currentVideoSize() {
            mediaSizeChanged(size)
        }
    }

    /// Publishes a new media size if it differs from the last one.
    func mediaSizeChanged(_ size: VideoSize) {
        guard playback.inputs.loaded, !playback.inputs.failed, size != facts.mediaSize else { return }
        facts.mediaSize = size
        statistics.current.videoSize = size
        hub.updateSnapshot { $0.mediaSize = size }
        publish(.mediaSize(size))
    }

    /// Playbin's `video-filter` (set by a feature before the sink, e.g. the window's crop): a new
    /// reference (`g_object_get`), nil when none is set or video is disabled.
    private func videoFilter() -> UnsafeMutablePointer<GstElement>? {
        guard sinks.video != nil, let playbin = pipeline?.object,
              let filter = CGStreamer_get_object(playbin, "video-filter") else { return nil }
        return filter.assumingMemoryBound(to: GstElement.self)
    }
}
