import BackendCore
import CGStreamer
import GLibSupport
import Synchronization

/// Keeps an external subtitle file's cues on the seek's segment. `subparse` (the parser behind
/// playbin's `suburi`) turns a seek into a byte seek to 0 upstream and applies the seek to its own
/// segment only once that push returned; by then the upstream thread may already have re-read
/// the file and pushed the new segment from the old values. Seen on 1.22 (about one seek in 25
/// under load): after seeks to 0.2 s then 3.0 s on `tracks.mkv` the text sink got a segment
/// starting at 0.2 s, so the cue at 1.0–2.0 s was shown after the landing at 3.0 s, the others
/// 2.8 s late, and the end of stream came 2.7 s late.
///
/// Two probes on each `subparse`'s `src` pad (`gst_pad_add_probe`) repair it: a flushing seek on
/// its way up is kept, and the first segment after it is replaced by the same seek applied to it
/// (`gst_segment_do_seek`, as `subparse` does; the same seek applied twice gives the same
/// segment, so a segment that was already right stays as it is). Text buffers wholly outside the
/// current segment (parsed before the seek took effect) are dropped.
///
/// **Threads:** `deep-element-added` and the probes run on GStreamer threads (the seek's, the
/// parser's); the kept seek and segment sit behind a `Mutex`. Each probe's box is released by
/// its destroy-notify when the pad goes; the signal handler is tracked by the core.
final class SubtitleSegmentRepair: Sendable {
    /// A seek's fields (`gst_event_parse_seek`), TIME format only.
    private struct Seek {
        var rate: Double
        var flags: GstSeekFlags
        var startType: GstSeekType
        var start: Int64
        var stopType: GstSeekType
        var stop: Int64
    }

    /// One parser's state: the seek not yet applied to a segment, and the last segment pushed.
    private final class ParserState: Sendable {
        /// `@unchecked`: `GstSegment` is a plain C value (no pointer in it is used), copied in and out.
        struct Fields: @unchecked Sendable {
            var pendingSeek: Seek?
            var segment: GstSegment?
        }
        let fields = Mutex(Fields())
    }

    /// Watches the elements playbin adds (`FeaturePipeline.watchElements`: `deep-element-added`,
    /// tracked by the core) for its `subparse`.
    func connect(to context: FeatureContext) {
        context.pipeline.watchElements(added: { parser, _ in
            guard SubtitleOverlayTap.factoryName(of: parser) == "subparse" else { return }
            SubtitleSegmentRepair.addProbes(to: parser)
        })
    }

    // MARK: Streaming threads

    private static func addProbes(to parser: UnsafeMutablePointer<GstElement>) {
        guard let pad = gst_element_get_static_pad(parser, "src") else { return }
        defer { gst_object_unref(UnsafeMutableRawPointer(pad)) }
        let state = ParserState()
        _ = gst_pad_add_probe(pad, GST_PAD_PROBE_TYPE_EVENT_UPSTREAM, { _, info, data in
            guard let info, let data, let event = CGStreamer_probe_info_event_upstream(info),
                  CGStreamer_event_type(event) == GST_EVENT_SEEK else { return GST_PAD_PROBE_OK }
            var seek = Seek(rate: 1, flags: GST_SEEK_FLAG_NONE, startType: GST_SEEK_TYPE_NONE, start: -1, stopType: GST_SEEK_TYPE_NONE, stop: -1)
            var format = GST_FORMAT_UNDEFINED
            var start: gint64 = -1, stop: gint64 = -1
            gst_event_parse_seek(event, &seek.rate, &format, &seek.flags, &seek.startType, &start, &seek.stopType, &stop)
            // Only flushing seeks restart the parser; an instant rate change sends no new segment.
            guard format == GST_FORMAT_TIME, seek.flags.rawValue & GST_SEEK_FLAG_FLUSH.rawValue != 0,
                  seek.flags.rawValue & GST_SEEK_FLAG_INSTANT_RATE_CHANGE.rawValue == 0 else { return GST_PAD_PROBE_OK }
            seek.start = Int64(start)
            seek.stop = Int64(stop)
            CallbackBox<ParserState>.from(data).value.fields.withLock { $0.pendingSeek = seek }
            return GST_PAD_PROBE_OK
        }, CallbackBox(state).retainedPointer, callbackBoxRelease)
        let downstream = GstPadProbeType(rawValue: GST_PAD_PROBE_TYPE_EVENT_DOWNSTREAM.rawValue | GST_PAD_PROBE_TYPE_BUFFER.rawValue)
        _ = gst_pad_add_probe(pad, downstream, { _, info, data in
            guard let info, let data else { return GST_PAD_PROBE_OK }
            let state = CallbackBox<ParserState>.from(data).value
            if let buffer = CGStreamer_probe_info_buffer(info) {
                let segment = state.fields.withLock { $0 }.segment
                return SubtitleSegmentRepair.isOutside(buffer, segment) ? GST_PAD_PROBE_DROP : GST_PAD_PROBE_OK
            }
            guard let event = CGStreamer_probe_info_event(info), CGStreamer_event_type(event) == GST_EVENT_SEGMENT else { return GST_PAD_PROBE_OK }
            var segment = GstSegment()
            gst_event_copy_segment(event, &segment)
            guard segment.format == GST_FORMAT_TIME else { return GST_PAD_PROBE_OK }
            let seek = state.fields.withLock { fields -> Seek? in
                defer { fields.pendingSeek = nil }
                return fields.pendingSeek
            }
            var repaired = segment
            if let seek {
                var update: gboolean = 0
                _ = gst_segment_do_seek(&repaired, seek.rate, GST_FORMAT_TIME, seek.flags, seek.startType, guint64(truncatingIfNeeded: seek.start),
                                        seek.stopType, guint64(truncatingIfNeeded: seek.stop), &update)
            }
            state.fields.withLock { [repaired] in $0.segment = repaired }
            guard gst_segment_is_equal(&segment, &repaired) == 0, let replacement = gst_event_new_segment(&repaired) else { return GST_PAD_PROBE_OK }
            DebugLog.log("subparse pushed a segment from before the seek (start \(segment.start)); repaired to start \(repaired.start)")
            gst_event_set_seqnum(replacement, gst_event_get_seqnum(event))
            CGStreamer_probe_info_replace_event(info, replacement)
            return GST_PAD_PROBE_OK
        }, CallbackBox(state).retainedPointer, callbackBoxRelease)
    }

    /// Whether `buffer` lies wholly outside `segment` (`gst_segment_clip`); a buffer without a
    /// timestamp or before any segment is kept.
    private static func isOutside(_ buffer: UnsafeMutablePointer<GstBuffer>, _ segment: GstSegment?) -> Bool {
        guard var segment, buffer.pointee.pts != CGStreamer_CLOCK_TIME_NONE() else { return false }
        let start = buffer.pointee.pts
        let stop = buffer.pointee.duration == CGStreamer_CLOCK_TIME_NONE() ? CGStreamer_CLOCK_TIME_NONE() : start + buffer.pointee.duration
        return gst_segment_clip(&segment, GST_FORMAT_TIME, start, stop, nil, nil) == 0
    }
}
