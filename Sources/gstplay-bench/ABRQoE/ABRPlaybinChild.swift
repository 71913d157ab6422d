import CGStreamer
import Foundation
import StreamingQoE

/// playbin's default adaptivedemux in a QoE run: a bare `playbin` (fake sinks,
/// `sync=true`, no `connection-speed`, so `hlsdemux`/`dashdemux` choose with their own heuristic)
/// with gst-play-1.0's buffering policy: PLAYING asked at once; a BUFFERING message under 100 %
/// sets PAUSED, 100 % sets PLAYING again. The bus is polled on the child's main thread
/// (`gst_bus_timed_pop`, 20 ms); the position is queried every 100 ms
/// (`gst_element_query_position`).
enum ABRPlaybinChild {
    static func run(uri: String, seconds: Double) throws -> (record: ABRChildRecord, teardown: () -> Void) {
        gst_init(nil, nil)
        guard let playbin = gst_element_factory_make("playbin", nil) else { throw BenchError("no playbin element") }
        _ = gst_object_ref_sink(UnsafeMutableRawPointer(playbin))
        let object = UnsafeMutableRawPointer(playbin)
        CGStreamer_set_string(object, "uri", uri)
        CGStreamer_set_object(object, "video-sink", UnsafeMutableRawPointer(try ChildSupport.makeSink(ChildSupport.sinkDescription(sync: true))))
        CGStreamer_set_object(object, "audio-sink", UnsafeMutableRawPointer(try ChildSupport.makeSink(ChildSupport.sinkDescription(sync: true))))
        let bus = gst_element_get_bus(playbin)!
        let teardown = {
            gst_element_set_state(playbin, GST_STATE_NULL)
            gst_object_unref(UnsafeMutableRawPointer(bus))
            gst_object_unref(object)
        }
        let load = MonotonicClock.now()
        var record = ABRChildRecord(player: "playbin", loadTime: load, playingTime: nil, endTime: load, samples: [])
        guard gst_element_set_state(playbin, GST_STATE_PLAYING) != GST_STATE_CHANGE_FAILURE else {
            teardown()
            throw BenchError("playbin refused PLAYING")
        }
        var buffering = false
        var stallStart: Double?
        var nextSample = load
        let deadline = load + seconds
        while true {
            let now = MonotonicClock.now()
            if now >= deadline { break }
            if now >= nextSample {
                var position: gint64 = 0
                if gst_element_query_position(playbin, GST_FORMAT_TIME, &position) != 0, position >= 0 {
                    record.samples.append(PositionSample(time: now, position: Double(position) / 1e9))
                }
                nextSample += 0.1
            }
            let wait = GstClockTime(max(0, min(0.02, nextSample - MonotonicClock.now())) * 1e9)
            guard let message = gst_bus_timed_pop(bus, wait) else { continue }
            defer { gst_message_unref(message) }
            switch CGStreamer_message_type(message) {
            case GST_MESSAGE_BUFFERING:
                var percent: Int32 = 0
                gst_message_parse_buffering(message, &percent)
                if percent < 100, !buffering {
                    buffering = true
                    gst_element_set_state(playbin, GST_STATE_PAUSED)
                    if record.playingTime != nil { stallStart = MonotonicClock.now() }
                } else if percent >= 100, buffering {
                    buffering = false
                    gst_element_set_state(playbin, GST_STATE_PLAYING)
                    if let began = stallStart { record.ownStalls.append(.init(start: began, end: MonotonicClock.now())) }
                    stallStart = nil
                }
            case GST_MESSAGE_STATE_CHANGED where CGStreamer_message_src(message) == CGStreamer_as_object(object):
                var old = GST_STATE_VOID_PENDING, new = GST_STATE_VOID_PENDING, pending = GST_STATE_VOID_PENDING
                gst_message_parse_state_changed(message, &old, &new, &pending)
                if new == GST_STATE_PLAYING, record.playingTime == nil { record.playingTime = MonotonicClock.now() }
            case GST_MESSAGE_ERROR:
                if record.error == nil { record.error = ChildSupport.errorText(message) }
            default: break
            }
        }
        record.endTime = MonotonicClock.now()
        if let began = stallStart { record.ownStalls.append(.init(start: began, end: record.endTime)) }
        return (record, teardown)
    }
}
