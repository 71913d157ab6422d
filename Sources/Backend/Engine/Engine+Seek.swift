import CGStreamer

/// Seeks and rate (loop thread): requests are resolved, kept until preroll, throttled by
/// ``SeekThrottle``, issued with `gst_element_seek`, and reported on ASYNC_DONE.
extension Engine {
    func requestSeek(_ target: SeekTarget, mode: SeekMode) {
        preconditionOnLoop()
        guard inputs.loaded, !inputs.failed, !isLive else { return }
        guard inputs.prerolled else {
            pendingSeekBeforePreroll = (target, mode)
            return
        }
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
        submitSeek(SeekRequest(position: position, mode: mode))
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

    /// ASYNC_DONE carries no seek seqnum through playbin, and one left from an earlier async
    /// state change (a pause) may still be queued: the marker posted right before the seek
    /// splits older ASYNC_DONEs from the seek's own (see ``BusMarker``).
    private func postSeekMarker(on playbin: UnsafeMutablePointer<GstElement>) {
        seekMarkerSeen = false
        seekMarkerSeqnum = BusMarker.post(.seek, on: playbin)
    }

    /// ASYNC_DONE after a seek: report the landed position, restore the target state.
    func seekCompleted() {
        guard let issued = seekIssuedAt else { return }
        seekIssuedAt = nil
        stats.lastSeekLatencyMilliseconds = Double(Engine.now() - issued) / 1e6
        let landed = playbin.flatMap(queryPosition) ?? .zero
        hub.updateSnapshot { $0.position = landed }
        inputs.seeking = false
        observersSawJump(to: landed)
        publish(.seekDone(landed))
        publish(.position(landed, duration: duration))
        applyTargetState()
        updateState()
    }

    /// Applies a new rate (validated by the caller). Same direction: first an instant rate change
    /// (`GST_SEEK_FLAG_INSTANT_RATE_CHANGE`, no flush); where the demuxer refuses it, or the
    /// direction changes, a flushing seek at the current position through the throttle.
    func setRate(_ newRate: Double) {
        preconditionOnLoop()
        guard newRate != rate else { return }
        let oldRate = rate
        rate = newRate
        stats.rate = newRate
        hub.updateSnapshot { $0.rate = newRate }
        publish(.rateChanged(newRate))
        guard inputs.loaded, inputs.prerolled, !inputs.failed, !isLive, let playbin else { return }
        if (oldRate > 0) == (newRate > 0), configuration.instantRateChange, !inputs.seeking,
           let event = gst_event_new_seek(newRate, GST_FORMAT_TIME, GST_SEEK_FLAG_INSTANT_RATE_CHANGE,
                                          GST_SEEK_TYPE_NONE, -1, GST_SEEK_TYPE_NONE, -1),
           gst_element_send_event(playbin, event) != 0 {
            stats.instantRateChanges += 1
            return
        }
        // A user action, not a scrub: not throttled (it still counts for the throttle window).
        let position = queryPosition(playbin) ?? .zero
        throttle.noteExecuted(now: Engine.now())
        executeSeek(SeekRequest(position: position, mode: .accurate))
    }
}
