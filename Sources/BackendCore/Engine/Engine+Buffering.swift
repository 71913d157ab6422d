import CGStreamer

/// The buffering rule applied (loop thread): each `GST_MESSAGE_BUFFERING` goes through
/// ``BufferingPolicy``; the engine pauses below 100 % and restores the user's target at 100 %.
///
/// A level from a `GST_BUFFERING_DOWNLOAD` element (`downloadbuffer`) is checked against a
/// `GST_QUERY_BUFFERING` asked of that element when the message is handled, and re-asked every
/// 500 ms while the player holds for it: a late, lower level (the element posts from two
/// threads outside its lock) or a 100 % that never comes cannot hold playback once the element
/// says it is no longer buffering or holds the whole file (docs/RELIABILITY.md).
extension Engine {
    /// How often a hold for a download-mode element is re-checked.
    static let bufferingRecheckInterval: Duration = .milliseconds(500)

    /// One BUFFERING message: level, mode (`gst_message_parse_buffering_stats`) and, in
    /// download mode, the posting element's answer to a buffering query now.
    func handleBuffering(_ message: UnsafeMutablePointer<GstMessage>) {
        var percent: gint = 0
        gst_message_parse_buffering(message, &percent)
        var gstMode = GST_BUFFERING_STREAM
        gst_message_parse_buffering_stats(message, &gstMode, nil, nil, nil)
        let mode = BufferingPolicy.Mode(gstMode)
        var probe: BufferingPolicy.Probe?
        if mode == .download, let source = CGStreamer_message_src(message),
           g_type_check_instance_is_a(UnsafeMutableRawPointer(source).assumingMemoryBound(to: GTypeInstance.self), gst_element_get_type()) != 0 {
            probe = BufferingQuery.ask(UnsafeMutableRawPointer(source).assumingMemoryBound(to: GstElement.self), format: GST_FORMAT_PERCENT)?.probe
            facts.downloadBufferName = CGStreamer_message_src_name(message).map { String(cString: $0) }
        }
        let decision = BufferingPolicy.decide(percent: Int(percent), mode: mode, probe: probe, isLive: facts.isLive,
                                              targetActive: playback.targetActive, targetPlaying: playback.targetPlaying,
                                              lastPercent: facts.lastBufferingPercent)
        trace("buffering \(percent)% \(mode) probe \(probe.map { "busy \($0.busy) complete \($0.complete)" } ?? "-") -> \(decision)")
        apply(decision, mode: mode)
    }

    /// Pauses (and reports the level) or resumes (reports 100 %, restores the target state);
    /// a pause for a download-mode element starts the re-check. Internal for the tests.
    func apply(_ decision: BufferingPolicy.Decision, mode: BufferingPolicy.Mode) {
        switch decision {
        case .ignore:
            return
        case .pause(let level):
            facts.lastBufferingPercent = level
            if !playback.inputs.buffering {
                playback.inputs.buffering = true
                statistics.bufferingStarted(now: Engine.now())
                // Before preroll playbin is only going to PAUSED: asking again re-ran uridecodebin's
                // READY→PAUSED (a new source and download buffer, the bytes held so far dropped).
                if playback.targetPlaying && playback.inputs.prerolled { pipeline?.setState(GST_STATE_PAUSED) }
            }
            if mode == .download { startBufferingRecheck() }
            statistics.current.bufferingPercent = level
            hub.updateSnapshot { $0.bufferingPercent = level }
            updateState()
            publish(.buffering(percent: level))
        case .resume:
            timers.bufferingCheck?.destroy(); timers.bufferingCheck = nil
            facts.lastBufferingPercent = 100
            statistics.current.bufferingPercent = 100
            statistics.bufferingEnded(now: Engine.now())
            hub.updateSnapshot { $0.bufferingPercent = 100 }
            publish(.buffering(percent: 100))
            playback.inputs.buffering = false
            applyTargetState()
            updateState()
        }
    }

    /// While the player holds for a download-mode element, asks it again every
    /// ``bufferingRecheckInterval`` (`gst_bin_get_by_name` on playbin, recursive) and resumes
    /// as soon as ``BufferingPolicy/recheck(holding:mode:probe:targetPlaying:)`` says so.
    private func startBufferingRecheck() {
        guard timers.bufferingCheck == nil else { return }
        timers.bufferingCheck = loop.addTimer(every: Self.bufferingRecheckInterval) { [unowned self] in
            guard self.playback.inputs.buffering else { self.timers.bufferingCheck = nil; return false }
            let probe = self.probeDownloadBuffer()
            let decision = BufferingPolicy.recheck(holding: true, mode: .download, probe: probe, targetPlaying: self.playback.targetPlaying)
            guard decision != .ignore else { return true }
            self.trace("buffering re-check: \(self.facts.downloadBufferName ?? "?") busy \(probe?.busy ?? true) complete \(probe?.complete ?? false) -> \(decision)")
            self.timers.bufferingCheck = nil
            self.apply(decision, mode: .download)
            return false
        }
    }

    /// The remembered download-mode element's answer now; nil when it is gone or does not answer.
    private func probeDownloadBuffer() -> BufferingPolicy.Probe? {
        guard let name = facts.downloadBufferName, let playbin = pipeline?.element,
              let element = gst_bin_get_by_name(CGStreamer_as_bin(playbin), name) else { return nil }
        defer { gst_object_unref(UnsafeMutableRawPointer(element)) }
        return BufferingQuery.ask(element, format: GST_FORMAT_PERCENT)?.probe
    }
}

extension BufferingPolicy.Mode {
    /// The policy's mode for a `GstBufferingMode`.
    init(_ mode: GstBufferingMode) {
        switch mode {
        case GST_BUFFERING_DOWNLOAD: self = .download
        case GST_BUFFERING_TIMESHIFT: self = .timeshift
        case GST_BUFFERING_LIVE: self = .live
        default: self = .stream
        }
    }
}
