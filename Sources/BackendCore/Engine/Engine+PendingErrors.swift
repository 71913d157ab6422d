import CGStreamer

/// Errors still on the bus at shutdown (loop thread).
extension Engine {
    /// Reports the ERROR messages of the current load that are already on playbin's bus when the
    /// player shuts down, before ``teardown()`` drops the bus watch with them: a `load` of a
    /// missing file posts its ERROR while the command runs (`gst_element_set_state` fails), and a
    /// frontend that quits right after the command must learn that it failed whatever the timing.
    /// Only ``PlayerEvent/error(_:)`` is published (no retry, no move in the
    /// queue: the player is going away); other pending messages are dropped. Messages
    /// before the last epoch marker (an earlier load) stay stale. Pops the bus with `gst_bus_pop`.
    func reportPendingErrors() {
        preconditionOnLoop()
        guard let pipeline, let element = pipeline.element, let bus = gst_element_get_bus(element) else { return }
        defer { gst_object_unref(UnsafeMutableRawPointer(bus)) }
        var reported = false
        while let message = gst_bus_pop(bus) {
            defer { gst_message_unref(message) }
            let type = CGStreamer_message_type(message)
            if type == GST_MESSAGE_APPLICATION, BusMarker.kind(of: message) == .epoch {
                if gst_message_get_seqnum(message) == pipeline.epochMarkerSeqnum { pipeline.epochMarkerSeqnum = nil }
                continue
            }
            guard type == GST_MESSAGE_ERROR, !reported, pipeline.epochMarkerSeqnum == nil, playback.inputs.loaded,
                  !playback.inputs.failed else { continue }   // only the first error of a load counts
            reported = true
            let error = PlayerError(errorMessage: message, facts: facts)
            hub.updateSnapshot { $0.lastError = error }
            publish(.error(error))
        }
    }
}
