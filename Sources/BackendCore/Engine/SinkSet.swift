import CGStreamer

/// The video and audio sinks given to `playbin`, and the elements inside them the engine
/// reads (rendered/dropped counts, the last rendered sample).
///
/// Automatic sinks follow ``SinkSelection``: the first candidate that opens (``SinkProbe``),
/// else a clock-synchronised fake sink; the choice is announced once (`sinks` event). **Thread:** loop thread only; ``release()`` drops
/// every reference.
final class SinkSet {
    /// playbin `flags` bits (GstPlayFlags).
    private enum PlayFlag {
        static let video: UInt32 = 0x1
        static let audio: UInt32 = 0x2
    }

    /// The sinks set on playbin (owned references), nil when disabled or not buildable.
    private(set) var video: UnsafeMutablePointer<GstElement>?
    private(set) var audio: UnsafeMutablePointer<GstElement>?
    /// The element inside the video sink that keeps `stats` (rendered/dropped), if any.
    private(set) var videoStatistics: UnsafeMutablePointer<GstElement>?
    /// The element inside the audio sink that keeps `last-sample`, if any.
    private(set) var audioSample: UnsafeMutablePointer<GstElement>?

    /// Builds the sinks for `configuration`, sets `video-sink`/`audio-sink`, clears the flags of
    /// disabled streams and adds `scaletempo` when pitch is kept. Returns the events to
    /// announce (warnings about unusable descriptions, the automatic headless choice).
    func install(on playbin: UnsafeMutableRawPointer, configuration: PlayerConfiguration,
                 environment: [String: String] = SinkSelection.environment()) -> [PlayerEvent] {
        var events: [PlayerEvent] = []
        var flags = CGStreamer_get_uint(playbin, "flags")
        var notes: [String] = []
        let videoText = SinkSelection.videoDescription(configuration.videoSink, environment: environment, notes: &notes)
        let audioText = SinkSelection.audioDescription(configuration.audioSink, environment: environment, notes: &notes)
        if let sink = Self.installSink(videoText, kind: "video", flag: PlayFlag.video, on: playbin, flags: &flags, warnings: &events) {
            video = sink
            videoStatistics = Self.findSink(in: sink, withProperty: "stats")
            XImageSinkPoolGuard.install(on: sink)   // its pools must not outlive its X context upstream
        }
        if let sink = Self.installSink(audioText, kind: "audio", flag: PlayFlag.audio, on: playbin, flags: &flags, warnings: &events) {
            audio = sink
            audioSample = Self.findSink(in: sink, withProperty: "last-sample")
        }
        CGStreamer_set_flags(playbin, "flags", flags)
        if configuration.keepPitch, audioText != nil, let scaletempo = gst_element_factory_make("scaletempo", nil) {
            // Keeps the pitch at rates other than 1 (passes through at 1).
            CGStreamer_set_object(playbin, "audio-filter", UnsafeMutableRawPointer(scaletempo))
        }
        if configuration.videoSink == .automatic || configuration.audioSink == .automatic {
            events.append(.sinksChosen(video: videoText ?? "none", audio: audioText ?? "none", reason: notes.joined(separator: "; ")))
        }
        return events
    }

    /// The display size from the video sink's sink pad caps (the seed's `check_media_size`).
    func currentVideoSize() -> VideoSize? {
        guard let video, let pad = gst_element_get_static_pad(video, "sink") else { return nil }
        defer { gst_object_unref(UnsafeMutableRawPointer(pad)) }
        return Self.videoSize(of: pad)
    }

    /// The stream time at the end of the last buffer a sink rendered (`last-sample`), the
    /// furthest of video and audio: what really played, even when a position query says more.
    func lastRenderedPosition() -> MediaTime? {
        var furthest: MediaTime?
        for sink in [videoStatistics, audioSample].compactMap({ $0 }) {
            guard CGStreamer_has_property(UnsafeMutableRawPointer(sink), "last-sample") != 0,
                  let raw = CGStreamer_get_object(UnsafeMutableRawPointer(sink), "last-sample") else { continue }
            let sample = OpaquePointer(raw)
            defer { gst_sample_unref(sample) }
            guard let buffer = gst_sample_get_buffer(sample), let segment = gst_sample_get_segment(sample) else { continue }
            let pts = buffer.pointee.pts
            guard pts != CGStreamer_CLOCK_TIME_NONE() else { continue }
            let end = buffer.pointee.duration == CGStreamer_CLOCK_TIME_NONE() ? pts : pts + buffer.pointee.duration
            let streamTime = gst_segment_to_stream_time(segment, GST_FORMAT_TIME, end)
            guard streamTime != CGStreamer_CLOCK_TIME_NONE() else { continue }
            let time = MediaTime(nanoseconds: Int64(clamping: streamTime))
            furthest = max(furthest ?? time, time)
        }
        return furthest
    }

    /// Rendered and dropped frame counts from the video sink's `stats` structure.
    func frameCounts() -> (rendered: UInt64, dropped: UInt64)? {
        guard let videoStatistics, let raw = CGStreamer_get_object(UnsafeMutableRawPointer(videoStatistics), "stats") else { return nil }
        let structure = raw.assumingMemoryBound(to: GstStructure.self)
        defer { gst_structure_free(structure) }
        var rendered: guint64 = 0, dropped: guint64 = 0
        _ = gst_structure_get_uint64(structure, "rendered", &rendered)
        _ = gst_structure_get_uint64(structure, "dropped", &dropped)
        return (UInt64(rendered), UInt64(dropped))
    }

    /// Drops every reference. Idempotent.
    func release() {
        for element in [videoStatistics, audioSample, video, audio].compactMap({ $0 }) {
            gst_object_unref(UnsafeMutableRawPointer(element))
        }
        videoStatistics = nil
        audioSample = nil
        video = nil
        audio = nil
    }

    /// Reads the display size from a pad's current caps (any thread).
    static func videoSize(of pad: UnsafeMutablePointer<GstPad>) -> VideoSize? {
        guard let caps = gst_pad_get_current_caps(pad) else { return nil }
        defer { gst_caps_unref(caps) }
        var width: gint = 0, height: gint = 0, parN: gint = 1, parD: gint = 1
        guard CGStreamer_video_caps_size(caps, &width, &height, &parN, &parD) != 0, width > 0, height > 0 else { return nil }
        return VideoSize(codedWidth: Int(width), height: Int(height), parNumerator: Int(parN), parDenominator: Int(parD))
    }

    /// Makes the `kind` (`video`/`audio`) sink from `description` and sets it as playbin's
    /// `<kind>-sink`; returns it (an owned reference). With no description (the stream is
    /// disabled) clears `flag` in `flags` and gives playbin a discarding `fake<kind>sink`: playbin
    /// still builds the chain with the flag cleared, and without a sink of our own it probes the
    /// auto sinks, which crash headless. Nil also when the description does not build (a warning
    /// in `warnings`; playbin then picks its own sink).
    private static func installSink(_ description: String?, kind: String, flag: UInt32, on playbin: UnsafeMutableRawPointer,
                                    flags: inout UInt32, warnings: inout [PlayerEvent]) -> UnsafeMutablePointer<GstElement>? {
        guard let description else {
            flags &= ~flag
            setDiscardingSink(playbin, "\(kind)-sink", "fake\(kind)sink")
            return nil
        }
        guard let sink = makeSink(description, kind: kind, warnings: &warnings) else { return nil }
        CGStreamer_set_object(playbin, "\(kind)-sink", UnsafeMutableRawPointer(sink))
        return sink
    }

    /// Sets a sink that throws data away (for a disabled stream).
    private static func setDiscardingSink(_ playbin: UnsafeMutableRawPointer, _ property: String, _ factory: String) {
        guard let sink = gst_element_factory_make(factory, nil) ?? gst_element_factory_make("fakesink", nil) else { return }
        CGStreamer_set_object(playbin, property, UnsafeMutableRawPointer(sink)) // playbin sinks the floating ref
    }

    /// A sink from a factory name or a `gst-launch` bin description (owned, floating ref sunk);
    /// nil with a warning appended on failure.
    private static func makeSink(_ description: String, kind: String, warnings: inout [PlayerEvent]) -> UnsafeMutablePointer<GstElement>? {
        let trimmed = description.trimmingWhitespace()
        var element: UnsafeMutablePointer<GstElement>?
        if !trimmed.contains(" ") && !trimmed.contains("!") {
            element = gst_element_factory_make(trimmed, nil)
            if element == nil {
                warnings.append(.warning(PlayerError(kind: .missingPlugin, message: "no \(kind) sink element '\(trimmed)'")))
                return nil
            }
        } else {
            var error: UnsafeMutablePointer<GError>?
            element = gst_parse_bin_from_description(trimmed, 1, &error)
            if let error {
                let text = error.pointee.message.map { String(cString: $0) } ?? "parse error"
                g_error_free(error)
                if let element { gst_object_unref(UnsafeMutableRawPointer(element)) }
                warnings.append(.warning(PlayerError(kind: .invalidArgument, message: "bad \(kind) sink '\(trimmed)': \(text)")))
                return nil
            }
        }
        guard let element else { return nil }
        _ = gst_object_ref_sink(UnsafeMutableRawPointer(element))
        return element
    }

    /// The element of `sink` (itself, or a sink inside a bin) that has `property`; a new reference or nil.
    static func findSink(in sink: UnsafeMutablePointer<GstElement>, withProperty property: String) -> UnsafeMutablePointer<GstElement>? {
        let object = UnsafeMutableRawPointer(sink)
        if CGStreamer_has_property(object, property) != 0 {
            _ = gst_object_ref(object)
            return sink
        }
        guard CGStreamer_is_bin(object) != 0, let iterator = gst_bin_iterate_sinks(CGStreamer_as_bin(object)) else { return nil }
        defer { gst_iterator_free(iterator) }
        var value = GValue()
        var found: UnsafeMutablePointer<GstElement>?
        while found == nil && gst_iterator_next(iterator, &value) == GST_ITERATOR_OK {
            if let child = g_value_get_object(&value), CGStreamer_has_property(child, property) != 0 {
                _ = gst_object_ref(child)
                found = CGStreamer_as_element(child)
            }
            g_value_reset(&value)
        }
        g_value_unset(&value)
        return found
    }
}
