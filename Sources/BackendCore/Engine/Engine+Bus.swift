import CGStreamer

/// Bus message routing (loop thread): the bus watch calls ``Engine/handle(message:)`` for
/// every message `playbin` posts; each kind goes to the handler that owns it.
extension Engine {
    func handle(message: UnsafeMutablePointer<GstMessage>) {
        guard let pipeline else { return }
        let type = CGStreamer_message_type(message)
        trace("bus \(String(cString: gst_message_type_get_name(type))) from \(CGStreamer_message_src_name(message).map { String(cString: $0) } ?? "?") seq \(gst_message_get_seqnum(message)) epoch-wait \(pipeline.epochMarkerSeqnum.map(String.init) ?? "-")")
        if type == GST_MESSAGE_APPLICATION, let marker = BusMarker.kind(of: message) {
            let seqnum = gst_message_get_seqnum(message)
            switch marker {
            case .epoch: if seqnum == pipeline.epochMarkerSeqnum { pipeline.epochMarkerSeqnum = nil }
            case .seek: if seqnum == seeks.markerSeqnum { seeks.markerSeen = true }
            }
            return
        }
        // Messages posted before the last load/stop belong to media we no longer play.
        guard pipeline.epochMarkerSeqnum == nil else { return }
        if featuresConsume(message) { return }
        switch type {
        case GST_MESSAGE_ERROR: handleError(message)
        case GST_MESSAGE_WARNING:
            publish(.warning(PlayerError(warningMessage: message, facts: facts)))
        case GST_MESSAGE_EOS: handleEndOfStream()
        case GST_MESSAGE_STATE_CHANGED: handleStateChanged(message)
        case GST_MESSAGE_ASYNC_DONE: handleAsyncDone()
        case GST_MESSAGE_SEGMENT_DONE: handleSegmentDone(message)
        case GST_MESSAGE_STEP_DONE: frameStepDone()
        case GST_MESSAGE_DURATION_CHANGED:
            facts.duration = nil
            queryDuration()
            runFractionSeekWaitingForDuration()
        case GST_MESSAGE_BUFFERING: if routing == nil { handleBuffering(message) }   // routed: playbin only prerolls
        case GST_MESSAGE_CLOCK_LOST: if routing == nil { handleClockLost() }
        case GST_MESSAGE_LATENCY:
            if let playbin = pipeline.object { _ = gst_bin_recalculate_latency(CGStreamer_as_bin(playbin)) }
        case GST_MESSAGE_REQUEST_STATE:
            var requested: GstState = GST_STATE_VOID_PENDING
            gst_message_parse_request_state(message, &requested)
            pipeline.setState(requested)
        case GST_MESSAGE_ELEMENT: handleElementMessage(message)
        case GST_MESSAGE_TAG:
            withTags(of: message) { statistics.absorb(tags: $0) }
        default: break
        }
    }

    private func handleError(_ message: UnsafeMutablePointer<GstMessage>) {
        guard !playback.inputs.failed, playback.inputs.loaded else { return } // only the first error of a load counts
        let error = PlayerError(errorMessage: message, facts: facts)
        if let named = arrivedBodyFailed(error) { return failUnlessFeatureActs(named) }
        if retryAfterNetworkError(error) { return }
        if playArrivedBody(after: error) { return }   // the final failure of a body shorter than announced
        failUnlessFeatureActs(namingShortBody(error))
    }

    private func handleEndOfStream() {
        // One end per play-through: GstBin can post EOS again when it goes back to PLAYING while
        // all its sinks are EOS, and a second `endOfStream` for one play-through was seen once
        // (the bench's throughput child, `sync=false`, a 0.2 s clip). A seek or a new load clears `ended`.
        guard playback.inputs.loaded, !playback.inputs.failed, !playback.inputs.ended else { return }
        let (position, endedEarly) = endOfStreamPosition()
        let duration = facts.duration
        // Said before the features act (a queue moves on to the next item): the warning names
        // this item, also when it is not the last.
        let cut = endedEarly || duration.map { playback.rate > 0 && position + MediaTime(seconds: 1) < $0 } ?? false
        if let failure = arrivedBodyCut(cut) { return failUnlessFeatureActs(failure) }
        if let short = arrivedBodyEnded() {
            publish(.warning(short))   // says the truncation; the position check would say it again
        } else if let duration, cut {
            publish(.warning(PlayerError(kind: .stream, message: "the stream ended at \(position.formatted()) of \(duration.formatted()): the file may be truncated", uri: facts.uri)))
        }
        featuresFinished()
        switch featuresEndOfStream() {
        case .proceed: break
        case .stop: return stop()
        case .advance, .retry: return
        }
        hub.updateSnapshot { $0.position = position }
        publish(.position(position, duration: duration))
        playback.inputs.ended = true
        playback.inputs.seeking = false
        seeks.issuedAt = nil
        resolveIssuedSeeks(at: position)
        updateState()
        publish(.endOfStream(position: position))
        releaseHeldSeek()
    }

    /// Where the stream ended, and whether the sinks rendered less than the pipeline says
    /// (`endedEarly`): a demuxer may end a cut file by jumping its segment to the end, and the
    /// sinks know what was really rendered.
    private func endOfStreamPosition() -> (position: MediaTime, endedEarly: Bool) {
        // Backwards, the segment we seek to always starts at 0, and EOS means it was reached
        // (some demuxers answer the position query with the segment's stop there).
        let position = playback.rate < 0 ? .zero : pipeline?.queryPosition() ?? facts.duration ?? .zero
        if playback.rate > 0, let rendered = sinks.lastRenderedPosition(), rendered + MediaTime(seconds: 1) < position {
            return (rendered, true)
        }
        return (position, false)
    }

    private func handleStateChanged(_ message: UnsafeMutablePointer<GstMessage>) {
        guard let pipeline, let playbin = pipeline.object, CGStreamer_message_src(message) == CGStreamer_as_object(playbin) else { return }
        var old: GstState = GST_STATE_VOID_PENDING, new: GstState = GST_STATE_VOID_PENDING, pending: GstState = GST_STATE_VOID_PENDING
        gst_message_parse_state_changed(message, &old, &new, &pending)
        pipeline.noteTransition(from: old, to: new)
        if new == GST_STATE_PLAYING { playback.inputs.leftReady = true }
        let wasPlaying = playback.inputs.pipelinePlaying
        if routing == nil { playback.inputs.pipelinePlaying = new == GST_STATE_PLAYING }   // routed: the route's report
        if old == GST_STATE_READY && new == GST_STATE_PAUSED {
            checkMediaSize()
            if facts.isLive && !playback.inputs.prerolled { prerollCompleted() }
        }
        let inputs = playback.inputs
        if wasPlaying && new == GST_STATE_PAUSED && !inputs.seeking && !inputs.buffering && inputs.prerolled {
            reportPosition()
        }
        updateState()
        if new == GST_STATE_PAUSED { runNextFrameStep() }
    }

    private func handleAsyncDone() {
        pausedRedrawLanded()
        guard playback.inputs.loaded, !playback.inputs.failed else { return }
        if !playback.inputs.prerolled {
            prerollCompleted()
        } else if seeks.inFlight && seeks.markerSeen {
            seekCompleted()
        }
    }

    /// First preroll after a load: media facts, then the start position (a reverse rate starts
    /// from the end) or the target state.
    private func prerollCompleted() {
        playback.inputs.prerolled = true
        timers.openWatchdog?.destroy(); timers.openWatchdog = nil
        queryDuration()
        checkMediaSize()
        featuresPrerolled()
        publishMediaInfo()
        updateState()
        if seeks.pending == nil && !facts.isLive {
            // The kept rate applies from the start: position 0 forwards, the end backwards.
            if playback.rate < 0 { seeks.pending = (.fraction(1), .accurate) } else if playback.rate != 1 { seeks.pending = (.absolute(.zero), .accurate) }
        }
        if let pending = seeks.pending {
            seeks.pending = nil
            requestSeek(pending.target, mode: pending.mode)
        } else {
            applyTargetState()
        }
        if !facts.isLive {
            reportPosition()
            observers.playheadJumped(to: hub.workingSnapshot.position)
        }
        resolveLoads()
    }

    /// Sets the pipeline to the user's target state unless buffering or seeking holds it.
    func applyTargetState() {
        let inputs = playback.inputs
        guard let pipeline, inputs.prerolled, !inputs.buffering, !inputs.seeking, !inputs.failed else { return }
        if playback.target == GST_STATE_PLAYING || playback.target == GST_STATE_PAUSED { pipeline.setState(playback.target) }
    }

    private func publishMediaInfo() {
        guard let pipeline, let playbin = pipeline.object, let uri = facts.uri else { return }
        var info = MediaInfo(uri: uri, isLive: facts.isLive || facts.isLiveWindow, isSeekable: pipeline.querySeekable(), duration: facts.duration,
                             hasVideo: CGStreamer_get_int(playbin, "n-video") > 0,
                             hasAudio: CGStreamer_get_int(playbin, "n-audio") > 0,
                             subtitleStreams: Int(CGStreamer_get_int(playbin, "n-text")))
        info.features = featureMediaInfo()
        hub.updateSnapshot { $0.isSeekable = info.isSeekable }
        publish(.mediaInfo(info))
    }

    private func handleClockLost() {
        guard let pipeline, playback.targetPlaying else { return }
        statistics.current.clockLostRecoveries += 1
        pipeline.setState(GST_STATE_PAUSED)
        pipeline.setState(GST_STATE_PLAYING)
    }

    private func handleElementMessage(_ message: UnsafeMutablePointer<GstMessage>) {
        if let structure = gst_message_get_structure(message),
           String(cString: gst_structure_get_name(structure)) == "http-headers" {
            if isStaleRedirectResponse(structure) { return }
            var status: guint = 0
            if gst_structure_get_uint(structure, "http-status-code", &status) != 0 { facts.lastHTTPStatus = Int(status) }
            if absorbRedirect(structure, status: facts.lastHTTPStatus) { return }
            absorbResponseHead(structure)
            return
        }
        guard gst_is_missing_plugin_message(message) != 0 else { return }
        let description = String(takingGLibString: gst_missing_plugin_message_get_description(message)) ?? "unknown plugin"
        guard !facts.missingPlugins.contains(description) else { return }
        facts.missingPlugins.append(description)
        publish(.warning(PlayerError(kind: .missingPlugin, element: CGStreamer_message_src_name(message).map { String(cString: $0) },
                                     message: "missing plugin: \(description)", missingPlugins: [description], uri: facts.uri)))
    }
}
