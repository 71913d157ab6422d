import CGStreamer

/// Routing between the engine and its ``AdaptiveMonitor`` (loop thread): bus messages, buffering
/// levels, preroll, end of stream and the monitor's timer; the monitor's events are published.
extension Engine {
    /// Starts the monitor's refresh (every 250 ms; it does nothing for non-adaptive media).
    func startAdaptiveTimer() {
        timers.adaptive = loop.addTimer(every: .milliseconds(250)) { [unowned self] in
            guard self.playback.inputs.loaded, !self.playback.inputs.failed else { return true }
            self.publishAdaptive(self.adaptive.tick(now: Engine.seconds()))
            if self.adaptive.info.isLive, self.playback.inputs.prerolled { self.adaptive.setLiveWindow(self.liveWindow()) }
            self.watchFrozenPosition()
            return true
        }
    }

    /// Seed 004's loop for a stall GStreamer does not report (``StallTracker/watchLevel(frozenFor:bufferSeconds:minBuffer:holding:remaining:)``):
    /// the level is posted on playbin's bus as a buffering element would, so the engine's
    /// buffering rule pauses and resumes as for any BUFFERING message. A hold started by
    /// decodebin's own buffering is left to it.
    private func watchFrozenPosition() {
        let inputs = playback.inputs
        guard adaptive.isAdaptive, inputs.prerolled, !inputs.ended, !inputs.seeking, !inputs.failed,
              let playbin = pipeline?.element else { adaptive.watch = .idle; return }
        let now = Engine.seconds()
        let position = pipeline?.queryPosition()
        let remaining = facts.duration.flatMap { d in position.map { (d - $0).seconds } }
        let minBuffer = adaptive.policy.effectiveMinBuffer
        let level: Int?
        switch adaptive.watch {
        case .holding(let posted):
            guard inputs.buffering, facts.lastBufferingPercent == posted else { adaptive.watch = .moving(position, since: now); return }
            level = StallTracker.watchLevel(frozenFor: 0, bufferSeconds: adaptive.info.bufferSeconds ?? 0, minBuffer: minBuffer,
                                            holding: true, remaining: remaining)
        case .moving(let last, let since) where last == position && pipeline?.state == GST_STATE_PLAYING && !inputs.buffering:
            level = StallTracker.watchLevel(frozenFor: now - since, bufferSeconds: adaptive.info.bufferSeconds ?? 0, minBuffer: minBuffer,
                                            holding: false, remaining: remaining)
        default:
            adaptive.watch = .moving(position, since: now)
            return
        }
        guard let level, level != facts.lastBufferingPercent else { return }
        adaptive.watch = level < 100 ? .holding(level) : .moving(position, since: now)
        if let message = gst_message_new_buffering(CGStreamer_as_object(UnsafeMutableRawPointer(playbin)), gint(level)) {
            _ = gst_element_post_message(playbin, message)
        }
    }

    /// Takes `adaptive-streaming-statistics` element messages (true); reports a failed segment
    /// request seen in an `http-headers` message as a warning and leaves the message to the engine.
    func handleAdaptiveMessage(_ message: UnsafeMutablePointer<GstMessage>) -> Bool {
        guard let structure = gst_message_get_structure(message) else { return false }
        switch String(cString: gst_structure_get_name(structure)) {
        case "adaptive-streaming-statistics":
            publishAdaptive(adaptive.handleStatistics(structure))
            return true
        case "http-headers":
            if let failure = adaptive.failedSegment(structure) {
                publish(.warning(PlayerError(kind: .network, element: CGStreamer_message_src_name(message).map { String(cString: $0) },
                                             message: "segment request failed (HTTP \(failure.status)): \(failure.uri); the demuxer retries or skips it",
                                             uri: facts.uri, httpStatus: failure.status)))
            }
            return false
        default:
            return false
        }
    }

    /// A buffering level the engine acted on.
    func adaptiveBuffering(_ percent: Int) {
        publishAdaptive(adaptive.buffering(percent: percent, now: Engine.seconds()))
    }

    /// Preroll: an adaptive stream without a duration is live (a sliding-window playlist).
    func adaptivePrerolled() {
        publishAdaptive(adaptive.tick(now: Engine.seconds()))
        if adaptive.isAdaptive { adaptive.setLive(facts.duration == nil) }
    }

    /// End of stream or stop: a running stall ends.
    func adaptiveFinished() {
        publishAdaptive(adaptive.finished(now: Engine.seconds()))
    }

    /// A seek on a live adaptive stream, inside its DVR window (`GST_QUERY_SEEKING` start…end):
    /// absolute targets and fractions count from the window's start, relative ones from `current`;
    /// a target outside is limited to the window (with a warning). Nil, with a warning, when the
    /// stream cannot seek.
    func liveSeekPosition(_ target: SeekTarget, current: MediaTime) -> MediaTime? {
        guard let window = liveWindow() else {
            publish(.warning(PlayerError(kind: .invalidArgument, message: "this live stream cannot seek (no DVR window)", uri: facts.uri)))
            return nil
        }
        let wanted: MediaTime
        switch target {
        case .absolute(let time): wanted = window.lowerBound + time
        case .relative(let offset): wanted = current + offset
        case .fraction(let fraction):
            let span = (window.upperBound - window.lowerBound).seconds
            wanted = window.lowerBound + MediaTime(seconds: span * min(max(fraction.isFinite ? fraction : 0, 0), 1))
        }
        let limited = min(max(wanted, window.lowerBound), window.upperBound)
        if limited != wanted {
            publish(.warning(PlayerError(kind: .invalidArgument,
                                         message: "seek target outside the live window (\(window.lowerBound.formatted())–\(window.upperBound.formatted())); limited to \(limited.formatted())",
                                         uri: facts.uri)))
        }
        return limited
    }

    /// The seekable range in stream time (`GST_QUERY_SEEKING`), nil when not seekable.
    func liveWindow() -> ClosedRange<MediaTime>? {
        guard let playbin = pipeline?.element, let query = gst_query_new_seeking(GST_FORMAT_TIME) else { return nil }
        defer { gst_query_unref(query) }
        var seekable: gboolean = 0
        var start: gint64 = -1, end: gint64 = -1
        guard gst_element_query(playbin, query) != 0 else { return nil }
        gst_query_parse_seeking(query, nil, &seekable, &start, &end)
        guard seekable != 0, start >= 0, end >= start else { return nil }
        return MediaTime(nanoseconds: Int64(start))...MediaTime(nanoseconds: Int64(end))
    }

    /// Replaces the ABR policy (command from ``Player/setAdaptivePolicy(_:)``).
    func setAdaptivePolicy(_ policy: AdaptivePolicy) {
        preconditionOnLoop()
        adaptive.setPolicy(policy)
    }

    private func publishAdaptive(_ events: [AdaptiveEvent]) {
        for event in events { publish(.adaptive(event)) }
    }

    /// Monotonic seconds.
    static func seconds() -> Double { Double(now()) / 1e9 }
}
