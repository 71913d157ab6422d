import CGStreamer

/// Seeks and rate (loop thread): requests are resolved, kept until preroll, throttled by
/// ``SeekThrottle``, issued with `gst_element_seek`, and reported on ASYNC_DONE.
extension Engine {
    func requestSeek(_ target: SeekTarget, mode: SeekMode) {
        preconditionOnLoop()
        guard inputs.loaded, !inputs.failed, !isLive else { return }
        let current = playbin.flatMap(queryPosition) ?? hub.snapshot.position ?? .zero
        var position: MediaTime
        switch target {
        case .absolute(let time): position = time
        case .relative(let offset): position = current + offset
        case .fraction(let fraction):
            guard let duration, fraction.isFinite else { return }
            position = MediaTime(seconds: duration.seconds * min(max(fraction, 0), 1))
        }
        position = position.clamped(to: duration)
        let request = SeekRequest(position: position, mode: mode)
        guard inputs.prerolled else {
            pendingSeekBeforePreroll = request
            return
        }
        submitSeek(request)
    }

    /// Passes a request through the throttle: now, or later from the seek timer.
    func submitSeek(_ request: SeekRequest) {
        switch throttle.request(request, now: Engine.now()) {
        case .execute(let seek): executeSeek(seek)
        case .armTimer(let ms): armSeekTimer(ms)
        case .coalesced, .idle: break
        }
    }

    private func armSeekTimer(_ milliseconds: UInt32) {
        seekTimer?.destroy()
        seekTimer = loop.addTimer(milliseconds: milliseconds) { [unowned self] in
            self.seekTimer = nil
            switch self.throttle.timerFired(now: Engine.now()) {
            case .execute(let seek): self.executeSeek(seek)
            case .armTimer(let ms): self.armSeekTimer(ms)
            case .coalesced, .idle: break
            }
            return false
        }
    }

    /// Issues a flushing seek at the current rate (`gst_element_seek`); negative rates play
    /// from `0` to the position backwards.
    func executeSeek(_ seek: SeekRequest) {
        guard let playbin, inputs.prerolled, !inputs.failed else { return }
        var flags = GST_SEEK_FLAG_FLUSH.rawValue
        flags |= seek.mode == .accurate ? GST_SEEK_FLAG_ACCURATE.rawValue
                                        : (GST_SEEK_FLAG_KEY_UNIT.rawValue | GST_SEEK_FLAG_SNAP_NEAREST.rawValue)
        let event: UnsafeMutablePointer<GstEvent>
        if rate > 0 {
            event = gst_event_new_seek(rate, GST_FORMAT_TIME, GstSeekFlags(rawValue: flags),
                                       GST_SEEK_TYPE_SET, gint64(seek.position.nanoseconds), GST_SEEK_TYPE_NONE, -1)
        } else {
            event = gst_event_new_seek(rate, GST_FORMAT_TIME, GstSeekFlags(rawValue: flags),
                                       GST_SEEK_TYPE_SET, 0, GST_SEEK_TYPE_SET, gint64(seek.position.nanoseconds))
        }
        postSeekMarker(on: playbin)
        let ok = gst_element_send_event(playbin, event) // takes ownership of the event
        guard ok != 0 else {
            publish(.warning(PlayerError(kind: .other, element: "playbin", message: "seek to \(seek.position.formatted(fractionDigits: 3)) failed", uri: uri)))
            return
        }
        stats.seekCount += 1
        seekIssuedAt = Engine.now()
        inputs.seeking = true
        inputs.ended = false
        updateState()
    }

    /// Name of the application message posted on the bus right before each seek.
    private static let seekMarkerName = "gstplay-seek-marker"

    /// ASYNC_DONE carries no seek seqnum through playbin, and one left from an earlier async
    /// state change (a pause) may still be queued. The bus is FIFO, so an application message
    /// posted just before the seek splits older ASYNC_DONEs from the seek's own.
    private func postSeekMarker(on playbin: UnsafeMutablePointer<GstElement>) {
        seekMarkerSeen = false
        let structure = gst_structure_new_empty(Engine.seekMarkerName)
        guard let message = gst_message_new_application(CGStreamer_as_object(UnsafeMutableRawPointer(playbin)), structure) else { return }
        seekMarkerSeqnum = gst_message_get_seqnum(message)
        _ = gst_element_post_message(playbin, message)
    }

    /// The marker of the latest seek came through the bus: the next ASYNC_DONE is the seek's.
    func handleSeekMarker(_ message: UnsafeMutablePointer<GstMessage>) {
        guard gst_message_get_seqnum(message) == seekMarkerSeqnum,
              let structure = gst_message_get_structure(message),
              String(cString: gst_structure_get_name(structure)) == Engine.seekMarkerName else { return }
        seekMarkerSeen = true
    }

    /// ASYNC_DONE after a seek: report the landed position, restore the target state.
    func seekCompleted() {
        guard let issued = seekIssuedAt else { return }
        seekIssuedAt = nil
        stats.lastSeekLatencyMilliseconds = Double(Engine.now() - issued) / 1e6
        let landed = playbin.flatMap(queryPosition) ?? .zero
        hub.updateSnapshot { $0.position = landed }
        inputs.seeking = false
        publish(.seekDone(landed))
        publish(.position(landed, duration: duration))
        applyTargetState()
        updateState()
    }

    /// Applies a new rate (validated by the caller) with a seek at the current position.
    func setRate(_ newRate: Double) {
        preconditionOnLoop()
        guard newRate != rate else { return }
        rate = newRate
        stats.rate = newRate
        hub.updateSnapshot { $0.rate = newRate }
        publish(.rateChanged(newRate))
        guard inputs.loaded, inputs.prerolled, !inputs.failed, !isLive, let playbin else { return }
        let position = queryPosition(playbin) ?? .zero
        submitSeek(SeekRequest(position: position, mode: .accurate))
    }
}
