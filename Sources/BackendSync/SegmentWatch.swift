import BackendCore
import CGStreamer
import GLibSupport
import Synchronization

/// The last TIME segment that reached the player's sinks, as a ``SegmentMapping``: what ties
/// running time to stream position exactly (a position query only answers for now, to a frame).
/// A downstream event probe on each sink's `sink` pad (`gst_pad_add_probe`) records every
/// SEGMENT event; a flushing seek, a rate change and a new item each bring one.
///
/// **Thread:** the probe, streaming threads; ``mapping`` any thread (a `Mutex`).
final class SegmentWatch: Sendable {
    private let last = Mutex<SegmentMapping?>(nil)

    /// The mapping of the last segment, nil before one arrived (or after ``forget()``).
    var mapping: SegmentMapping? { last.withLock { $0 } }

    /// Forgets the mapping (a new load: its segment comes with its preroll).
    func forget() { last.withLock { $0 = nil } }

    /// Watches the `sink` pad of each of `sinks` (bins too: their ghost pad). The probes stay
    /// for the sinks' life; each holds the watch.
    func watch(_ sinks: [UnsafeMutablePointer<GstElement>]) {
        for sink in sinks {
            guard let pad = gst_element_get_static_pad(sink, "sink") else { continue }
            defer { gst_object_unref(UnsafeMutableRawPointer(pad)) }
            _ = gst_pad_add_probe(pad, GST_PAD_PROBE_TYPE_EVENT_DOWNSTREAM, { _, info, data in
                guard let info, let data, let event = CGStreamer_probe_info_event(info),
                      CGStreamer_event_type(event) == GST_EVENT_SEGMENT else { return GST_PAD_PROBE_OK }
                var segment = GstSegment()
                gst_event_copy_segment(event, &segment)
                guard segment.format == GST_FORMAT_TIME, segment.rate > 0 else { return GST_PAD_PROBE_OK }
                CallbackBox<SegmentWatch>.from(data).value.record(SegmentWatch.mapping(of: segment))
                return GST_PAD_PROBE_OK
            }, CallbackBox(self).retainedPointer, callbackBoxRelease)
        }
    }

    private func record(_ mapping: SegmentMapping) { last.withLock { $0 = mapping } }

    /// A forward segment's point: running time `base` plays stream time `time` + `offset`
    /// (`gst_segment_to_running_time` and `gst_segment_to_stream_time` at `start + offset`).
    static func mapping(of segment: GstSegment) -> SegmentMapping {
        SegmentMapping(runningTime: UInt64(segment.base), streamPosition: Int64(bitPattern: UInt64(segment.time) &+ UInt64(segment.offset)),
                       rate: segment.rate * segment.applied_rate)
    }
}
