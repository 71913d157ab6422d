import CGStreamer

/// Sinks, playbin signals, media size and statistics (loop thread).
extension Engine {
    /// playbin `flags` bits (GstPlayFlags).
    private enum PlayFlag {
        static let video: UInt32 = 0x1
        static let audio: UInt32 = 0x2
    }

    /// Builds and sets `video-sink` / `audio-sink`, clears the flags of disabled streams, and
    /// announces automatic headless choices once.
    func configureSinks() {
        guard let playbin else { return }
        let object = UnsafeMutableRawPointer(playbin)
        let environment = SinkSelection.detect()
        var flags = CGStreamer_get_uint(object, "flags")
        let videoText = SinkSelection.videoDescription(configuration.videoSink, environment)
        let audioText = SinkSelection.audioDescription(configuration.audioSink, environment)
        if let videoText, let sink = makeSink(videoText, kind: "video") {
            videoSink = sink
            statisticsSink = Engine.findStatisticsSink(in: sink)
            CGStreamer_set_object(object, "video-sink", UnsafeMutableRawPointer(sink))
        } else if videoText == nil {
            flags &= ~PlayFlag.video
            // playbin still builds a video chain with the flag cleared; without a sink of our
            // own it probes the auto sinks, which crash headless.
            setDiscardingSink(object, "video-sink", "fakevideosink")
        }
        if let audioText, let sink = makeSink(audioText, kind: "audio") {
            audioSink = sink
            audioSampleSink = Engine.findSink(in: sink, withProperty: "last-sample")
            CGStreamer_set_object(object, "audio-sink", UnsafeMutableRawPointer(sink))
        } else if audioText == nil {
            flags &= ~PlayFlag.audio
            setDiscardingSink(object, "audio-sink", "fakeaudiosink")
        }
        CGStreamer_set_flags(object, "flags", flags)
        if configuration.keepPitch, audioText != nil, let scaletempo = gst_element_factory_make("scaletempo", nil) {
            // Keeps the pitch at rates other than 1 (passes through at 1).
            CGStreamer_set_object(object, "audio-filter", UnsafeMutableRawPointer(scaletempo))
        }
        let autoVideo = configuration.videoSink == .automatic && !environment.hasDisplay
        let autoAudio = configuration.audioSink == .automatic && !environment.hasAudioDevice
        if autoVideo || autoAudio {
            var reasons: [String] = []
            if autoVideo { reasons.append("no display (DISPLAY/WAYLAND_DISPLAY unset)") }
            if autoAudio { reasons.append("no audio device (no PulseAudio/PipeWire socket or ALSA card)") }
            publishLater(.sinksChosen(video: videoText ?? "none", audio: audioText ?? "none", reason: reasons.joined(separator: "; ")))
        }
    }

    /// Sets a sink that throws data away (for a disabled stream).
    private func setDiscardingSink(_ playbin: UnsafeMutableRawPointer, _ property: String, _ factory: String) {
        guard let sink = gst_element_factory_make(factory, nil) ?? gst_element_factory_make("fakesink", nil) else { return }
        CGStreamer_set_object(playbin, property, UnsafeMutableRawPointer(sink)) // playbin sinks the floating ref
    }

    /// A sink from a factory name or a `gst-launch` bin description; nil (with a warning) on failure.
    private func makeSink(_ description: String, kind: String) -> UnsafeMutablePointer<GstElement>? {
        let trimmed = description.trimmingCharacters(in: .whitespaces)
        var element: UnsafeMutablePointer<GstElement>?
        if !trimmed.contains(" ") && !trimmed.contains("!") {
            element = gst_element_factory_make(trimmed, nil)
            if element == nil {
                publishLater(.warning(PlayerError(kind: .missingPlugin, message: "no \(kind) sink element '\(trimmed)'")))
                return nil
            }
        } else {
            var error: UnsafeMutablePointer<GError>?
            element = gst_parse_bin_from_description(trimmed, 1, &error)
            if let error {
                let text = error.pointee.message.map { String(cString: $0) } ?? "parse error"
                g_error_free(error)
                if let element { gst_object_unref(UnsafeMutableRawPointer(element)) }
                publishLater(.warning(PlayerError(kind: .invalidArgument, message: "bad \(kind) sink '\(trimmed)': \(text)")))
                return nil
            }
        }
        guard let element else { return nil }
        _ = gst_object_ref_sink(UnsafeMutableRawPointer(element))
        return element
    }

    /// The element of `sink` (itself, or a sink inside a bin) that has the `stats` property of
    /// `GstBaseSink`; returns a new reference or nil.
    static func findStatisticsSink(in sink: UnsafeMutablePointer<GstElement>) -> UnsafeMutablePointer<GstElement>? {
        findSink(in: sink, withProperty: "stats")
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

    /// Events raised while the engine is still being built are sent by ``start()``.
    private func publishLater(_ event: PlayerEvent) {
        startupEvents.append(event)
    }

    /// `notify::caps` on the video sink's sink pad: the media size, also mid-stream. The handler
    /// runs on a streaming thread, reads the caps there and hands the size to the loop thread.
    func connectPlaybinSignals() {
        guard let videoSink, let pad = gst_element_get_static_pad(videoSink, "sink") else { return }
        defer { gst_object_unref(UnsafeMutableRawPointer(pad)) }
        let box = CallbackBox<(MainLoopThread, Engine)>((loop, self))
        let padObject = UnsafeMutableRawPointer(pad)
        let id = CGStreamer_signal_connect_2(padObject, "notify::caps", { instance, _, data in
            guard let instance, let data else { return }
            let (loop, engine) = CallbackBox<(MainLoopThread, Engine)>.from(data).value
            let pad = instance.assumingMemoryBound(to: GstPad.self)
            guard let size = Engine.videoSize(of: pad) else { return }
            loop.invoke { [weak engine] in engine?.mediaSizeChanged(size) }
        }, box.retainedPointer, callbackBoxClosureRelease)
        // The pad belongs to the sink we hold a reference on; teardown disconnects before unref.
        signalHandlers.append((padObject, id))
    }

    /// Reads the display size from a pad's current caps (any thread).
    static func videoSize(of pad: UnsafeMutablePointer<GstPad>) -> VideoSize? {
        guard let caps = gst_pad_get_current_caps(pad) else { return nil }
        defer { gst_caps_unref(caps) }
        var width: gint = 0, height: gint = 0, parN: gint = 1, parD: gint = 1
        guard CGStreamer_video_caps_size(caps, &width, &height, &parN, &parD) != 0, width > 0, height > 0 else { return nil }
        return VideoSize(codedWidth: Int(width), height: Int(height), parNumerator: Int(parN), parDenominator: Int(parD))
    }

    /// The stream time at the end of the last buffer a sink rendered (`last-sample`), the
    /// furthest of video and audio: what really played, even when a position query says more.
    func lastRenderedPosition() -> MediaTime? {
        var furthest: MediaTime?
        for sink in [statisticsSink, audioSampleSink].compactMap({ $0 }) {
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

    /// Reads the size at preroll (the seed's `check_media_size`).
    func checkMediaSize() {
        guard let videoSink, let pad = gst_element_get_static_pad(videoSink, "sink") else { return }
        defer { gst_object_unref(UnsafeMutableRawPointer(pad)) }
        if let size = Engine.videoSize(of: pad) { mediaSizeChanged(size) }
    }

    /// Publishes a new media size if it differs from the last one.
    func mediaSizeChanged(_ size: VideoSize) {
        guard inputs.loaded, !inputs.failed, size != mediaSize else { return }
        mediaSize = size
        stats.videoSize = size
        hub.updateSnapshot { $0.mediaSize = size }
        publish(.mediaSize(size))
    }

    /// Fills ``PlayerStatistics`` from the sinks and our counters; stores it for getters and
    /// publishes it as an event when `publish` is set.
    func collectStatistics(publish shouldPublish: Bool) {
        preconditionOnLoop()
        var snapshot = stats
        if let statisticsSink, let structure = CGStreamer_get_object(UnsafeMutableRawPointer(statisticsSink), "stats") {
            let gstStructure = structure.assumingMemoryBound(to: GstStructure.self)
            var value: guint64 = 0
            if gst_structure_get_uint64(gstStructure, "rendered", &value) != 0 { snapshot.renderedFrames = UInt64(value) }
            if gst_structure_get_uint64(gstStructure, "dropped", &value) != 0 { snapshot.droppedFrames = UInt64(value) }
            gst_structure_free(gstStructure)
        }
        if let playbin { snapshot.position = queryPosition(playbin) }
        snapshot.duration = duration
        // Average bitrate: the source's size in bytes over the duration.
        if let playbin, let duration, duration.nanoseconds > 0,
           let source = CGStreamer_get_object(UnsafeMutableRawPointer(playbin), "source") {
            var bytes: gint64 = 0
            if gst_element_query_duration(CGStreamer_as_element(source), GST_FORMAT_BYTES, &bytes) != 0, bytes > 0 {
                snapshot.averageBitrate = UInt64(Double(bytes) * 8 / duration.seconds)
            }
            gst_object_unref(source)
        }
        if let started = bufferingStartedAt {
            snapshot.bufferingTimeMilliseconds += Double(Engine.now() - started) / 1e6
        }
        hub.storeStatistics(snapshot)
        if shouldPublish { publish(.statistics(snapshot)) }
    }
}
