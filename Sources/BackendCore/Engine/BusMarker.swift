import CGStreamer

/// Application messages the engine posts on its own bus to split what came before from what
/// comes after (the bus is FIFO). Used where GStreamer's messages carry nothing that ties them
/// to a request: ASYNC_DONE after a seek, and state changes left over from a previous load.
enum BusMarker: String {
    /// Posted on load and stop: earlier messages are stale and dropped until it arrives.
    case epoch = "gstplay-epoch-marker"
    /// Posted right before a seek: the first ASYNC_DONE after it is the seek's.
    case seek = "gstplay-seek-marker"

    /// Posts a marker from `playbin` (`gst_message_new_application` + `gst_element_post_message`)
    /// and returns its seqnum.
    static func post(_ marker: BusMarker, on playbin: UnsafeMutablePointer<GstElement>) -> guint32 {
        let structure = gst_structure_new_empty(marker.rawValue)
        guard let message = gst_message_new_application(CGStreamer_as_object(UnsafeMutableRawPointer(playbin)), structure) else { return 0 }
        let seqnum = gst_message_get_seqnum(message)
        _ = gst_element_post_message(playbin, message)
        return seqnum
    }

    /// The marker a message is, if it is one of ours.
    static func kind(of message: UnsafeMutablePointer<GstMessage>) -> BusMarker? {
        guard let structure = gst_message_get_structure(message), let name = gst_structure_get_name(structure) else { return nil }
        return BusMarker(rawValue: String(cString: name))
    }
}
