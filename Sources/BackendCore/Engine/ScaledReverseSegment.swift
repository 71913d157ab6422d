import CGStreamer

/// How far the audio sink's position answer runs ahead when media plays backwards through
/// `scaletempo` at a rate other than -1.
///
/// Played backwards at rate r, `scaletempo` hands its output a segment of rate 1 whose applied
/// rate is r and whose stop is moved to output time (start + (stop - start) / |r|). `basesink`
/// counts a reverse position back from `time + (stop - start)` as if that span were stream time,
/// so its answer (and playbin's, the largest of its sinks') is too large by
/// (stop - start) × (1 - |r|): 10.7 s for a true 5.3 s at rate -0.5. Forward rates and rate -1
/// are unaffected (no span is counted, or it is not scaled).
///
/// **Thread:** any; reads a pad's sticky event.
enum ScaledReverseSegment {
    /// The excess for a segment (nanoseconds), nil when the segment is not a scaled reverse one.
    /// Pure; unit-tested.
    static func excess(start: UInt64, stop: UInt64, rate: Double, appliedRate: Double) -> Int64? {
        let magnitude = abs(appliedRate)
        guard rate > 0, appliedRate < 0, magnitude < 1 || magnitude > 1, magnitude.isFinite,
              stop != UInt64.max, stop > start else { return nil }
        return Int64(clamping: Int64(Double(stop - start) * (1 - magnitude)))
    }

    /// The excess of the position `sink` answers now, from the segment on its sink pad
    /// (`gst_pad_get_sticky_event`, `GST_EVENT_SEGMENT`); nil when it needs no correction.
    static func excess(of sink: UnsafeMutablePointer<GstElement>) -> Int64? {
        guard let pad = gst_element_get_static_pad(sink, "sink") else { return nil }
        defer { gst_object_unref(UnsafeMutableRawPointer(pad)) }
        guard let event = gst_pad_get_sticky_event(pad, GST_EVENT_SEGMENT, 0) else { return nil }
        defer { gst_event_unref(event) }
        var segment: UnsafePointer<GstSegment>?
        gst_event_parse_segment(event, &segment)
        guard let segment, segment.pointee.format == GST_FORMAT_TIME else { return nil }
        return excess(start: UInt64(segment.pointee.start), stop: UInt64(segment.pointee.stop),
                      rate: segment.pointee.rate, appliedRate: segment.pointee.applied_rate)
    }
}
