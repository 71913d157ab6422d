import BackendCore
import CGStreamer
import GLibSupport

/// playbin's `text-sink` when cues are delivered as data (``SubtitleRendering/events``): a
/// `fakesink` that renders on the clock (`sync=true`, so its `handoff` fires when a cue is due),
/// a normal sink otherwise (seeks and EOS go through it; the external subtitle file's branch is
/// reached only that way). The handler (streaming thread) reads each buffer's text and times
/// and hands them to the loop thread.
///
/// While PAUSED after a flushing seek it holds the next cue, and a position query on playbin
/// (the maximum over all sinks) then answered with that cue's time (3.04 s after a seek to
/// 1.53 s on `tracks.mkv`): the core asks the video and audio sinks instead
/// (``FeaturePipeline/queryPositionFromSinks(_:)``). Tried and dropped: clearing its `GST_ELEMENT_FLAG_SINK`
/// (seeks then never reach `subparse` behind `suburi`) and holding cues in `identity sync=true`
/// (paused seeks never completed).
///
/// **Thread:** built and released on the loop thread; the handler runs on a streaming thread
/// and only posts to the loop. The core disconnects it at teardown (``FeatureLoop/track(handler:on:)``).
final class SubtitleCueSink {
    /// The sink (an owned reference) or nil when `fakesink` is missing.
    private(set) var element: UnsafeMutablePointer<GstElement>?

    init() {
        guard let sink = gst_element_factory_make("fakesink", "gstplay-text-sink") else { return }
        _ = gst_object_ref_sink(UnsafeMutableRawPointer(sink))
        let object = UnsafeMutableRawPointer(sink)
        CGStreamer_set_boolean(object, "sync", 1)
        CGStreamer_set_boolean(object, "signal-handoffs", 1)
        element = sink
    }

    /// A cue as read on the streaming thread: text, and the buffer's start/end in stream time.
    struct RawCue: Sendable {
        var text: String
        var start: MediaTime
        var end: MediaTime?
    }

    /// Connects `handoff`; `deliver` runs on the streaming thread with each cue.
    func connect(to context: FeatureContext, _ deliver: @escaping @Sendable (RawCue) -> Void) {
        guard let element else { return }
        let box = CallbackBox<@Sendable (RawCue) -> Void>(deliver)
        let object = UnsafeMutableRawPointer(element)
        let id = CGStreamer_signal_connect_3(object, "handoff", { _, buffer, pad, data in
            guard let buffer, let pad, let data else { return }
            let cue = SubtitleCueSink.read(buffer.assumingMemoryBound(to: GstBuffer.self), pad: pad.assumingMemoryBound(to: GstPad.self))
            if let cue { CallbackBox<@Sendable (RawCue) -> Void>.from(data).value(cue) }
        }, box.retainedPointer, callbackBoxClosureRelease)
        context.loop.track(handler: id, on: object)
    }

    /// Drops the reference (after the pipeline's teardown disconnected the handler).
    func release() {
        if let element { gst_object_unref(UnsafeMutableRawPointer(element)) }
        element = nil
    }

    /// Text and stream-time span of `buffer`, using the pad's segment (`gst_segment_to_stream_time`).
    static func read(_ buffer: UnsafeMutablePointer<GstBuffer>, pad: UnsafeMutablePointer<GstPad>) -> RawCue? {
        let pts = buffer.pointee.pts
        guard pts != CGStreamer_CLOCK_TIME_NONE() else { return nil }
        var info = GstMapInfo()
        guard gst_buffer_map(buffer, &info, GST_MAP_READ) != 0 else { return nil }
        let bytes = UnsafeBufferPointer(start: info.data, count: Int(info.size))
        let markup = String(decoding: bytes, as: UTF8.self)
        gst_buffer_unmap(buffer, &info)
        var start = pts
        // Times from a parsed .srt/.vtt can be anything: saturating arithmetic, no overflow trap.
        var end: GstClockTime?
        if buffer.pointee.duration != CGStreamer_CLOCK_TIME_NONE() {
            let (sum, overflow) = pts.addingReportingOverflow(buffer.pointee.duration)
            end = overflow ? .max : sum
        }
        if let event = gst_pad_get_sticky_event(pad, GST_EVENT_SEGMENT, 0) {
            defer { gst_event_unref(event) }
            var segment: UnsafePointer<GstSegment>?
            gst_event_parse_segment(event, &segment)
            if let segment, segment.pointee.format == GST_FORMAT_TIME {
                let streamStart = gst_segment_to_stream_time(segment, GST_FORMAT_TIME, pts)
                if streamStart != CGStreamer_CLOCK_TIME_NONE() {
                    if let stop = end { end = (stop - start).addingReportingOverflow(streamStart).overflow ? .max : stop - start + streamStart }
                    start = streamStart
                }
            }
        }
        return RawCue(text: CueText.plain(fromMarkup: markup),
                      start: MediaTime(nanoseconds: Int64(clamping: start)), end: end.map { MediaTime(nanoseconds: Int64(clamping: $0)) })
    }
}

/// Plain text from the pango markup `subparse` and `matroskademux` put in `text/x-raw` buffers.
/// Pure; unit-tested.
enum CueText {
    /// Removes `<tags>`, resolves the five XML entities, trims trailing newlines (LF, CR) and
    /// NULs. Works on Unicode scalars: a combining mark after `>` or `;` must not hide it.
    static func plain(fromMarkup markup: String) -> String {
        var scalars = String.UnicodeScalarView()
        var inTag = false
        for scalar in markup.unicodeScalars {
            if scalar == "<" { inTag = true; continue }
            if scalar == ">" && inTag { inTag = false; continue }
            if !inTag { scalars.append(scalar) }
        }
        var text = String(scalars)
        for (entity, value) in [("&lt;", "<"), ("&gt;", ">"), ("&quot;", "\""), ("&apos;", "'"), ("&amp;", "&")] {
            text = text.replacingAll(entity, with: value)
        }
        var trimmed = text.unicodeScalars
        while let last = trimmed.last, last == "\n" || last == "\0" || last == "\r" { trimmed.removeLast() }
        return String(trimmed)
    }
}
