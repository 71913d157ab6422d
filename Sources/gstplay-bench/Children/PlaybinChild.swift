import CGStreamer

/// `child playbin CLIP`: the Swift floor. A bare `playbin` driven with C calls from a Swift
/// process that links the same libraries as gstplay (Swift runtime, Foundation, Backend), doing
/// what `gst-launch-1.0 playbin` does: PLAYING, then wait on the bus for EOS or ERROR.
/// `--flags FLAGS` sets playbin's `flags` (e.g. `video+audio`, without playbin's default
/// soft-volume, text, deinterlace and soft-colorbalance).
enum PlaybinChild {
    static func run(_ arguments: ChildArguments) throws -> Int32 {
        let clip = try arguments.clip()
        let sync = try arguments.bool("sync", default: true)
        gst_init(nil, nil)
        guard let playbin = gst_element_factory_make("playbin", nil) else { throw BenchError("no playbin element") }
        _ = gst_object_ref_sink(UnsafeMutableRawPointer(playbin))
        let object = UnsafeMutableRawPointer(playbin)
        CGStreamer_set_string(object, "uri", try ChildSupport.uri(forPath: clip))
        if let flags = arguments.options["flags"] {
            CGStreamer_set_from_string(object, "flags", flags) // e.g. "video+audio" (gst_util_set_object_arg)
        }
        CGStreamer_set_object(object, "video-sink", UnsafeMutableRawPointer(try ChildSupport.makeSink(ChildSupport.sinkDescription(sync: sync))))
        CGStreamer_set_object(object, "audio-sink", UnsafeMutableRawPointer(try ChildSupport.makeSink(ChildSupport.sinkDescription(sync: sync))))
        let bus = gst_element_get_bus(playbin)!
        defer {
            gst_element_set_state(playbin, GST_STATE_NULL)
            gst_object_unref(UnsafeMutableRawPointer(bus))
            gst_object_unref(object)
        }
        guard gst_element_set_state(playbin, GST_STATE_PLAYING) != GST_STATE_CHANGE_FAILURE else {
            throw BenchError("playbin refused PLAYING")
        }
        let wanted = GstMessageType(rawValue: GST_MESSAGE_EOS.rawValue | GST_MESSAGE_ERROR.rawValue)
        guard let message = gst_bus_timed_pop_filtered(bus, CGStreamer_CLOCK_TIME_NONE(), wanted) else {
            throw BenchError("bus closed before EOS")
        }
        defer { gst_message_unref(message) }
        if CGStreamer_message_type(message) == GST_MESSAGE_ERROR {
            throw BenchError("playback error: \(ChildSupport.errorText(message))")
        }
        ChildSupport.emit([("eos", "1"), ("threads", ChildSupport.threadReport())])
        return 0
    }
}
