import CGStreamer
import GLibSupport
import Glibc

/// A diagnostic feature that writes a ``RenderLog`` line for every buffer the player's video and
/// audio sinks render (`gstplay --render-log=FILE`; the sync bench reads it).
///
/// How the render moment is taken, per sink:
/// - A sink with `signal-handoffs` (`fakesink`, and the headless `fakevideosink`/`fakeaudiosink`
///   gstplay falls back to): its `handoff` signal. `GstBaseSink` emits it from `render()`, which it
///   calls only after the clock wait for the buffer returned, so the moment the handler reads the
///   clocks is the render moment itself, late buffers included (measured, not predicted).
///   A pad probe would fire before that wait (up to a frame early, more behind a queue).
/// - Any other sink (a display or sound card sink, which has no such signal): a buffer probe on
///   its sink pad, which runs before the wait, so the moment is computed instead of observed:
///   `base time + running time(pts) + latency` is when `GstBaseSink` will let the buffer through,
///   mapped to CLOCK_REALTIME through the clock's distance from now (a buffer already late counts
///   as rendered now). An estimate: it does not see an audio ring buffer's own delay.
///
/// The handlers run on the streaming threads and only format a line into the log's memory
/// buffer (``RenderLog/record(kind:pts:runningTime:realtime:)``); nothing there blocks.
/// **Thread:** loop thread (``PlayerFeature``); the handlers, streaming threads.
public final class RenderLogFeature: PlayerFeature {
    private let log: RenderLog

    /// A feature writing to `log`, which it closes at the player's teardown.
    public init(log: RenderLog) { self.log = log }

    /// Hooks the video and the audio sink (each when present).
    public func attach(to context: FeatureContext) {
        if let video = context.video.sink { hook(video, kind: "video", context: context) }
        if let audio = context.pipeline.audioSink { hook(audio, kind: "audio", context: context) }
    }

    /// Closes the log (what is pending is written).
    public func teardown() { log.close() }

    /// What a handler needs: where to write and the kind of its sink.
    private struct Target: Sendable {
        let log: RenderLog
        let kind: String
    }

    private func hook(_ sink: UnsafeMutablePointer<GstElement>, kind: String, context: FeatureContext) {
        let target = Target(log: log, kind: kind)
        if let element = SinkSet.findSink(in: sink, withProperty: "signal-handoffs") {
            defer { gst_object_unref(UnsafeMutableRawPointer(element)) }
            let object = UnsafeMutableRawPointer(element)
            CGStreamer_set_boolean(object, "signal-handoffs", 1)
            let id = CGStreamer_signal_connect_3(object, "handoff", { element, buffer, _, data in
                guard let element, let buffer, let data else { return }
                let target = CallbackBox<Target>.from(data).value
                RenderLogFeature.rendered(buffer.assumingMemoryBound(to: GstBuffer.self),
                                          by: element.assumingMemoryBound(to: GstElement.self), target: target)
            }, CallbackBox(target).retainedPointer, callbackBoxClosureRelease)
            context.loop.track(handler: id, on: object)
        } else if let element = SinkSet.findSink(in: sink, withProperty: "sync"),
                  let pad = gst_element_get_static_pad(element, "sink") {
            gst_object_unref(UnsafeMutableRawPointer(element))
            defer { gst_object_unref(UnsafeMutableRawPointer(pad)) }
            _ = gst_pad_add_probe(pad, GST_PAD_PROBE_TYPE_BUFFER, { pad, info, data in
                guard let pad, let info, let data, let buffer = CGStreamer_probe_info_buffer(info) else { return GST_PAD_PROBE_OK }
                RenderLogFeature.due(buffer, on: pad, target: CallbackBox<Target>.from(data).value)
                return GST_PAD_PROBE_OK
            }, CallbackBox(target).retainedPointer, callbackBoxRelease)
        }
    }

    /// `handoff`: the buffer is being rendered now. CLOCK_REALTIME is read first, then the
    /// pipeline clock (a network client clock takes its own lock). On a `SCHED_FIFO` thread the
    /// handler then yields: the sinks of other players on the same machine woke for the same
    /// instant and wait behind this thread at the same priority; they render before this
    /// thread's bookkeeping (the log line, the next buffer's chain) instead of after it.
    private static func rendered(_ buffer: UnsafeMutablePointer<GstBuffer>, by element: UnsafeMutablePointer<GstElement>,
                                 target: Target) {
        let realtime = RenderLog.realtimeNow()
        let pts = buffer.pointee.pts
        guard pts != CGStreamer_CLOCK_TIME_NONE(), let clock = gst_element_get_clock(element) else { return }
        defer { gst_object_unref(UnsafeMutableRawPointer(clock)) }
        let now = gst_clock_get_time(clock)
        let base = gst_element_get_base_time(element)
        if sched_getscheduler(0) == SCHED_FIFO { sched_yield() }
        target.log.record(kind: target.kind, pts: UInt64(pts), runningTime: UInt64(now >= base ? now - base : 0), realtime: realtime)
    }

    /// Buffer probe before the wait: the moment `GstBaseSink` will render the buffer.
    private static func due(_ buffer: UnsafeMutablePointer<GstBuffer>, on pad: UnsafeMutablePointer<GstPad>, target: Target) {
        let pts = buffer.pointee.pts
        guard pts != CGStreamer_CLOCK_TIME_NONE(), let element = gst_pad_get_parent_element(pad) else { return }
        defer { gst_object_unref(UnsafeMutableRawPointer(element)) }
        guard let clock = gst_element_get_clock(element) else { return }   // not PLAYING yet: prerolling, not rendering
        defer { gst_object_unref(UnsafeMutableRawPointer(clock)) }
        guard let event = gst_pad_get_sticky_event(pad, GST_EVENT_SEGMENT, 0) else { return }
        defer { gst_event_unref(event) }
        var segment: UnsafePointer<GstSegment>?
        gst_event_parse_segment(event, &segment)
        guard let segment, segment.pointee.format == GST_FORMAT_TIME else { return }
        let running = gst_segment_to_running_time(segment, GST_FORMAT_TIME, pts)
        guard running != CGStreamer_CLOCK_TIME_NONE() else { return }
        let baseSink = UnsafeMutableRawPointer(element).assumingMemoryBound(to: GstBaseSink.self)
        let latency = gst_base_sink_get_latency(baseSink)
        let base = gst_element_get_base_time(element)
        let dueClock = base &+ running &+ latency
        let now = gst_clock_get_time(clock)
        let realtime = RenderLog.realtimeNow()
        let ahead = dueClock > now ? dueClock - now : 0
        target.log.record(kind: target.kind, pts: UInt64(pts), runningTime: UInt64(running &+ latency), realtime: realtime &+ UInt64(ahead))
    }
}
