import CGStreamer

/// Bus message handling (loop thread): the bus watch on the player's context calls
/// ``Engine/handle(message:)`` for every message `playbin` posts.
extension Engine {
    func handle(message: UnsafeMutablePointer<GstMessage>) {
        let type = CGStreamer_message_type(message)
        trace("bus \(String(cString: gst_message_type_get_name(type))) from \(CGStreamer_message_src_name(message).map { String(cString: $0) } ?? "?") seq \(gst_message_get_seqnum(message)) epoch-wait \(epochMarkerSeqnum.map(String.init) ?? "-")")
        if type == GST_MESSAGE_APPLICATION, let marker = BusMarker.kind(of: message) {
            let seqnum = gst_message_get_seqnum(message)
            switch marker {
            case .epoch: if seqnum == epochMarkerSeqnum { epochMarkerSeqnum = nil }
            case .seek: if seqnum == seekMarkerSeqnum { seekMarkerSeen = true }
            }
            return
        }
        // Messages posted before the last load/stop belong to media we no longer play.
        guard epochMarkerSeqnum == nil else { return }
        switch type {
        case GST_MESSAGE_ERROR: handleError(message)
        case GST_MESSAGE_WARNING: handleWarning(message)
        case GST_MESSAGE_EOS: handleEndOfStream()
        case GST_MESSAGE_STATE_CHANGED: handleStateChanged(message)
        case GST_MESSAGE_ASYNC_DONE: handleAsyncDone()
        case GST_MESSAGE_DURATION_CHANGED:
            duration = nil
            queryDuration()
        case GST_MESSAGE_BUFFERING: handleBuffering(message)
        case GST_MESSAGE_CLOCK_LOST: handleClockLost()
        case GST_MESSAGE_LATENCY:
            if let playbin { _ = gst_bin_recalculate_latency(CGStreamer_as_bin(UnsafeMutableRawPointer(playbin))) }
        case GST_MESSAGE_REQUEST_STATE:
            var requested: GstState = GST_STATE_VOID_PENDING
            gst_message_parse_request_state(message, &requested)
            if let playbin { gst_element_set_state(playbin, requested) }
        case GST_MESSAGE_ELEMENT: handleElementMessage(message)
        case GST_MESSAGE_TAG: handleTags(message)
        default: break
        }
    }

    // MARK: Errors and warnings

    private func handleError(_ message: UnsafeMutablePointer<GstMessage>) {
        guard !inputs.failed, inputs.loaded else { return } // only the first error of a load counts
        var gerror: UnsafeMutablePointer<GError>?
        var debug: UnsafeMutablePointer<gchar>?
        gst_message_parse_error(message, &gerror, &debug)
        let error = makeError(message, gerror, debug)
        if retryAfterNetworkError(error) { return }
        fail(error)
    }

    private func handleWarning(_ message: UnsafeMutablePointer<GstMessage>) {
        var gerror: UnsafeMutablePointer<GError>?
        var debug: UnsafeMutablePointer<gchar>?
        gst_message_parse_warning(message, &gerror, &debug)
        publish(.warning(makeError(message, gerror, debug)))
    }

    /// Builds a ``PlayerError`` from a parsed error/warning, freeing the GError and debug text.
    private func makeError(_ message: UnsafeMutablePointer<GstMessage>, _ gerror: UnsafeMutablePointer<GError>?,
                           _ debug: UnsafeMutablePointer<gchar>?) -> PlayerError {
        let element = CGStreamer_message_src_name(message).map { String(cString: $0) }
        let debugText = String(takingGLibString: debug)
        defer { if gerror != nil { g_error_free(gerror) } }
        guard let gerror else {
            return PlayerError(kind: .other, element: element, message: "unknown error", debug: debugText, uri: uri)
        }
        let domain = gerror.pointee.domain
        let code = Int(gerror.pointee.code)
        let text = gerror.pointee.message.map { String(cString: $0) } ?? "unknown error"
        var kind: PlayerError.Kind
        switch domain {
        case gst_resource_error_quark(): kind = .resource
        case gst_stream_error_quark(): kind = .stream
        case gst_core_error_quark(): kind = .core
        case gst_library_error_quark(): kind = .library
        default: kind = .other
        }
        if (domain == gst_core_error_quark() && code == Int(GST_CORE_ERROR_MISSING_PLUGIN.rawValue))
            || (domain == gst_stream_error_quark() && code == Int(GST_STREAM_ERROR_CODEC_NOT_FOUND.rawValue)) {
            kind = .missingPlugin
        } else if isNetworkURI, kind == .resource || (kind == .stream && element == "source") || lastHTTPStatus.map({ $0 >= 300 }) == true {
            kind = .network
        }
        return PlayerError(kind: kind, code: code, element: element, message: text, debug: debugText,
                           missingPlugins: missingPlugins, uri: uri,
                           httpStatus: lastHTTPStatus.flatMap { $0 >= 300 ? $0 : nil })
    }

    // MARK: End of stream

    private func handleEndOfStream() {
        guard inputs.loaded, !inputs.failed else { return }
        var position = playbin.flatMap(queryPosition) ?? duration ?? .zero
        // A demuxer may end a cut file by jumping its segment to the end; the sinks know what
        // was really rendered.
        var endedEarly = false
        if rate > 0, let rendered = lastRenderedPosition(), rendered + MediaTime(seconds: 1) < position {
            position = rendered
            endedEarly = true
        }
        hub.updateSnapshot { $0.position = position }
        publish(.position(position, duration: duration))
        inputs.ended = true
        inputs.seeking = false
        seekIssuedAt = nil
        updateState()
        if let duration, endedEarly || (rate > 0 && position + MediaTime(seconds: 1) < duration) {
            publish(.warning(PlayerError(kind: .stream, message: "the stream ended at \(position.formatted()) of \(duration.formatted()): the file may be truncated", uri: uri)))
        }
        publish(.endOfStream(position: position))
    }

    // MARK: State changes and preroll

    private func handleStateChanged(_ message: UnsafeMutablePointer<GstMessage>) {
        guard let playbin, CGStreamer_message_src(message) == CGStreamer_as_object(UnsafeMutableRawPointer(playbin)) else { return }
        var old: GstState = GST_STATE_VOID_PENDING, new: GstState = GST_STATE_VOID_PENDING, pending: GstState = GST_STATE_VOID_PENDING
        gst_message_parse_state_changed(message, &old, &new, &pending)
        pipelineState = new
        if new == GST_STATE_PLAYING { inputs.leftReady = true }
        if pipelineTransitions.count < 4096 { pipelineTransitions.append((old, new)) }
        let wasPlaying = inputs.pipelinePlaying
        inputs.pipelinePlaying = new == GST_STATE_PLAYING
        if old == GST_STATE_READY && new == GST_STATE_PAUSED {
            checkMediaSize()
            if isLive && !inputs.prerolled { prerollCompleted() }
        }
        if wasPlaying && new == GST_STATE_PAUSED && !inputs.seeking && !inputs.buffering && inputs.prerolled {
            reportPosition()
        }
        updateState()
    }

    private func handleAsyncDone() {
        guard inputs.loaded, !inputs.failed else { return }
        if !inputs.prerolled {
            prerollCompleted()
        } else if seekIssuedAt != nil && seekMarkerSeen {
            seekCompleted()
        }
    }

    /// First preroll after a load: media facts, pending seek or target state.
    private func prerollCompleted() {
        inputs.prerolled = true
        openWatchdog?.destroy(); openWatchdog = nil
        queryDuration()
        checkMediaSize()
        publishMediaInfo()
        updateState()
        if rate != 1.0 && !isLive && pendingSeekBeforePreroll == nil {
            // Apply the kept rate from the start position.
            pendingSeekBeforePreroll = (.absolute(.zero), .accurate)
        }
        if let pending = pendingSeekBeforePreroll {
            pendingSeekBeforePreroll = nil
            requestSeek(pending.target, mode: pending.mode)
        } else {
            applyTargetState()
        }
        if !isLive {
            reportPosition()
            lastBoundaryPosition = hub.snapshot.position
        }
    }

    /// Sets the pipeline to the user's target state unless buffering or seeking holds it.
    func applyTargetState() {
        guard let playbin, inputs.prerolled, !inputs.buffering, !inputs.seeking, !inputs.failed else { return }
        if targetState == GST_STATE_PLAYING {
            gst_element_set_state(playbin, GST_STATE_PLAYING)
        } else if targetState == GST_STATE_PAUSED {
            gst_element_set_state(playbin, GST_STATE_PAUSED)
        }
    }

    private func publishMediaInfo() {
        guard let playbin, let uri else { return }
        let object = UnsafeMutableRawPointer(playbin)
        let query = gst_query_new_seeking(GST_FORMAT_TIME)!
        var seekable: gboolean = 0
        if gst_element_query(playbin, query) != 0 {
            gst_query_parse_seeking(query, nil, &seekable, nil, nil)
        }
        gst_query_unref(query)
        let info = MediaInfo(uri: uri, isLive: isLive, isSeekable: seekable != 0, duration: duration,
                             hasVideo: CGStreamer_get_int(object, "n-video") > 0,
                             hasAudio: CGStreamer_get_int(object, "n-audio") > 0,
                             subtitleStreams: Int(CGStreamer_get_int(object, "n-text")))
        hub.updateSnapshot { $0.isSeekable = info.isSeekable }
        publish(.mediaInfo(info))
    }

    // MARK: Buffering and clock

    private func handleBuffering(_ message: UnsafeMutablePointer<GstMessage>) {
        var percent: gint = 0
        gst_message_parse_buffering(message, &percent)
        let decision = BufferingPolicy.decide(percent: Int(percent), isLive: isLive,
                                              targetActive: targetState == GST_STATE_PAUSED || targetState == GST_STATE_PLAYING,
                                              targetPlaying: targetState == GST_STATE_PLAYING,
                                              lastPercent: lastBufferingPercent)
        switch decision {
        case .ignore:
            return
        case .pause(let level):
            lastBufferingPercent = level
            if !inputs.buffering {
                inputs.buffering = true
                if bufferingStartedAt == nil { bufferingStartedAt = Engine.now() }
                if let playbin, targetState == GST_STATE_PLAYING { gst_element_set_state(playbin, GST_STATE_PAUSED) }
            }
            stats.bufferingPercent = level
            hub.updateSnapshot { $0.bufferingPercent = level }
            updateState()
            publish(.buffering(percent: level))
            publish(.message("Buffering \(level)%"))
        case .resume:
            lastBufferingPercent = 100
            stats.bufferingPercent = 100
            hub.updateSnapshot { $0.bufferingPercent = 100 }
            let wasBuffering = inputs.buffering
            if let started = bufferingStartedAt {
                stats.bufferingTimeMilliseconds += Double(Engine.now() - started) / 1e6
                bufferingStartedAt = nil
            }
            publish(.buffering(percent: 100))
            if wasBuffering { publish(.message("Buffering complete")) }
            inputs.buffering = false
            applyTargetState()
            updateState()
        }
    }

    private func handleClockLost() {
        guard let playbin, targetState == GST_STATE_PLAYING else { return }
        stats.clockLostRecoveries += 1
        gst_element_set_state(playbin, GST_STATE_PAUSED)
        gst_element_set_state(playbin, GST_STATE_PLAYING)
    }

    // MARK: Element messages and tags

    private func handleElementMessage(_ message: UnsafeMutablePointer<GstMessage>) {
        if let structure = gst_message_get_structure(message),
           String(cString: gst_structure_get_name(structure)) == "http-headers" {
            var status: guint = 0
            if gst_structure_get_uint(structure, "http-status-code", &status) != 0 { lastHTTPStatus = Int(status) }
            return
        }
        guard gst_is_missing_plugin_message(message) != 0 else { return }
        let description = String(takingGLibString: gst_missing_plugin_message_get_description(message)) ?? "unknown plugin"
        guard !missingPlugins.contains(description) else { return }
        missingPlugins.append(description)
        publish(.warning(PlayerError(kind: .missingPlugin, element: CGStreamer_message_src_name(message).map { String(cString: $0) },
                                     message: "missing plugin: \(description)", missingPlugins: [description], uri: uri)))
    }

    private func handleTags(_ message: UnsafeMutablePointer<GstMessage>) {
        var tags: UnsafeMutablePointer<GstTagList>?
        gst_message_parse_tag(message, &tags)
        guard let tags else { return }
        defer { gst_tag_list_unref(tags) }
        var text: UnsafeMutablePointer<gchar>?
        if gst_tag_list_get_string(tags, GST_TAG_VIDEO_CODEC, &text) != 0, let value = String(takingGLibString: text) {
            stats.videoCodec = value
        }
        text = nil
        if gst_tag_list_get_string(tags, GST_TAG_AUDIO_CODEC, &text) != 0, let value = String(takingGLibString: text) {
            stats.audioCodec = value
        }
        var bitrate: guint = 0
        if gst_tag_list_get_uint(tags, GST_TAG_BITRATE, &bitrate) != 0 || gst_tag_list_get_uint(tags, GST_TAG_NOMINAL_BITRATE, &bitrate) != 0 {
            if bitrate > 0 { stats.bitrate = UInt64(bitrate) }
        }
    }
}
