import CGStreamer

/// The counters behind ``PlayerStatistics`` and the snapshot built from them on request.
///
/// **Thread:** loop thread only.
final class StatisticsCollector {
    /// Counters and facts gathered since the last load (tags, seeks, buffering, retries…).
    var current = PlayerStatistics()
    /// When the current buffering period began (monotonic ns), nil when not buffering.
    private var bufferingStartedAt: UInt64?

    /// A new load: counters start again; refused state transitions and the rate carry over.
    func resetForNewMedia(rate: Double) {
        let rejected = current.rejectedStateTransitions
        current = PlayerStatistics()
        current.rejectedStateTransitions = rejected
        current.rate = rate
        bufferingStartedAt = nil
    }

    /// Buffering began (first message below 100 %).
    func bufferingStarted(now: UInt64) {
        if bufferingStartedAt == nil { bufferingStartedAt = now }
    }

    /// Buffering ended: its time is added to ``PlayerStatistics/bufferingTimeMilliseconds``.
    func bufferingEnded(now: UInt64) {
        guard let started = bufferingStartedAt else { return }
        current.bufferingTimeMilliseconds += Double(now - started) / 1e6
        bufferingStartedAt = nil
    }

    /// A seek was executed / landed after `latency` nanoseconds.
    func seekExecuted() { current.seekCount += 1 }
    func seekLanded(latencyNanoseconds: UInt64) { current.lastSeekLatencyMilliseconds = Double(latencyNanoseconds) / 1e6 }

    /// Codecs and bitrate from a tag list (`GST_TAG_VIDEO_CODEC`, `GST_TAG_AUDIO_CODEC`, `GST_TAG_BITRATE`).
    func absorb(tags: UnsafeMutablePointer<GstTagList>) {
        var text: UnsafeMutablePointer<gchar>?
        if gst_tag_list_get_string(tags, GST_TAG_VIDEO_CODEC, &text) != 0, let value = String(takingGLibString: text) {
            current.videoCodec = value
        }
        text = nil
        if gst_tag_list_get_string(tags, GST_TAG_AUDIO_CODEC, &text) != 0, let value = String(takingGLibString: text) {
            current.audioCodec = value
        }
        var bitrate: guint = 0
        if gst_tag_list_get_uint(tags, GST_TAG_BITRATE, &bitrate) != 0 || gst_tag_list_get_uint(tags, GST_TAG_NOMINAL_BITRATE, &bitrate) != 0,
           bitrate > 0 {
            current.bitrate = UInt64(bitrate)
        }
    }

    /// A full snapshot: the counters plus what the sinks and pipeline say now (frame counts,
    /// position, average bitrate from the source's byte length over the duration).
    func snapshot(pipeline: PlaybinPipeline, sinks: SinkSet, duration: MediaTime?, now: UInt64) -> PlayerStatistics {
        var snapshot = current
        if let counts = sinks.frameCounts() {
            snapshot.renderedFrames = counts.rendered
            snapshot.droppedFrames = counts.dropped
        }
        snapshot.position = pipeline.queryPosition()
        snapshot.duration = duration
        if let playbin = pipeline.object, let duration, duration.nanoseconds > 0,
           let source = CGStreamer_get_object(playbin, "source") {
            var bytes: gint64 = 0
            if gst_element_query_duration(CGStreamer_as_element(source), GST_FORMAT_BYTES, &bytes) != 0, bytes > 0 {
                snapshot.averageBitrate = WholeNumber.clamped(Double(bytes) * 8 / duration.seconds)   // the server's size: any number
            }
            gst_object_unref(source)
        }
        if let started = bufferingStartedAt { snapshot.bufferingTimeMilliseconds += Double(now - started) / 1e6 }
        return snapshot
    }
}
