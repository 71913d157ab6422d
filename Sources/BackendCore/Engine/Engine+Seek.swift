import CGStreamer

/// Seeks and rate (loop thread): requests are resolved, kept until preroll (fractions until
/// the duration is known), throttled by ``SeekThrottle``, issued with `gst_element_seek`, and
/// reported on ASYNC_DONE.
extension Engine {
    /// Resolves `target` and passes it to the throttle; `reply` (``Player/seekAsync(to:mode:)``)
    /// gets the landed position, or fails at once when nothing that can seek is loaded.
    func requestSeek(_ target: SeekTarget, mode: SeekMode, reply: PendingReply<MediaTime>? = nil) {
        preconditionOnLoop()
        let inputs = playback.inputs
        guard inputs.loaded, !inputs.failed, !facts.isLive, let pipeline else {
            reply?.resolve(.failure(PlayerError(kind: .invalidArgument, message: facts.isLive ? "a live stream cannot seek" : "nothing is playing", uri: facts.uri)))
            return
        }
        guard inputs.prerolled else {
            seeks.pending = (target, mode)
            queueSeekReply(reply)
            return
        }
        if reply != nil, !hub.workingSnapshot.isSeekable {
            reply?.resolve(.failure(PlayerError(kind: .invalidArgument, message: "the media cannot seek", uri: facts.uri)))
            return
        }
        let current = routePosition() ?? pipeline.queryPosition() ?? hub.workingSnapshot.position ?? .zero
        if facts.isLiveWindow {
            guard let position = liveSeekPosition(target, current: current) else {
                reply?.resolve(.failure(PlayerError(kind: .invalidArgument, message: "the live window cannot seek there", uri: facts.uri)))
                return
            }
            queueSeekReply(reply)
            submitSeek(SeekRequest(position: position, mode: mode))
            return
        }
        var position: MediaTime
        switch target {
        case .absolute(let time): position = time
        case .relative(let offset): position = current + offset
        case .fraction(let fraction):
            guard fraction.isFinite else {
                reply?.resolve(.failure(PlayerError(kind: .invalidArgument, message: "the seek fraction \(fraction) is not a number")))
                return
            }
            guard let duration = facts.duration else {
                // Runs once the duration is known (``queryDuration()``); play on meanwhile.
                seeks.pending = (target, mode)
                queueSeekReply(reply)
                applyTargetState()
                return
            }
            position = MediaTime(seconds: duration.seconds * min(max(fraction, 0), 1))
        }
        position = position.clamped(to: facts.duration)
        queueSeekReply(reply)
        submitSeek(SeekRequest(position: position, mode: mode))
    }

    /// Passes a request through the throttle: now, later from the seek timer, or when the seek in
    /// flight lands (``seekCompleted(landedAt:)``).
    func submitSeek(_ request: SeekRequest) {
        carryOut(seeks.throttle.request(request, now: Engine.now(), inFlightSince: seeks.issuedAt))
    }

    /// The seek in flight is over without a landing to report here (the end of the stream, a
    /// refused live seek): a request held for it goes now.
    func releaseHeldSeek() {
        carryOut(seeks.throttle.landed(now: Engine.now()))
    }

    /// Does what the throttle decided.
    private func carryOut(_ action: SeekThrottle.Action) {
        switch action {
        case .execute(let seek):
            timers.seek?.destroy(); timers.seek = nil
            seekIssued(executeSeek(seek))
        case .armTimer(let ms): armSeekTimer(.milliseconds(ms))
        case .coalesced, .idle: break
        }
    }

    private func armSeekTimer(_ delay: Duration) {
        timers.seek?.destroy()
        timers.seek = loop.addTimer(every: delay) { [unowned self] in
            self.timers.seek = nil
            self.carryOut(self.seeks.throttle.timerFired(now: Engine.now(), inFlightSince: self.seeks.issuedAt))
            return false
        }
    }

    /// Issues a flushing seek at the current rate (`gst_element_seek`); negative rates play
    /// from the position back to 0; inside an active A-B loop, a segment seek to the loop's end
    /// (`GST_SEEK_FLAG_SEGMENT`). The error when it could not be issued.
    @discardableResult
    func executeSeek(_ seek: SeekRequest) -> PlayerError? {
        guard let pipeline, let playbin = pipeline.element, playback.inputs.prerolled, !playback.inputs.failed else {
            return PlayerError(kind: .other, message: "nothing prerolled to seek in", uri: facts.uri)
        }
        if let routing {
            routeSeek(seek, on: routing)
            return nil
        }
        var flags = GST_SEEK_FLAG_FLUSH.rawValue
        flags |= seek.mode == .accurate ? GST_SEEK_FLAG_ACCURATE.rawValue
                                        : (GST_SEEK_FLAG_KEY_UNIT.rawValue | GST_SEEK_FLAG_SNAP_NEAREST.rawValue)
        let rate = playback.rate
        let event: UnsafeMutablePointer<GstEvent>
        // Inside an active A-B loop the seek is a segment seek ending at the loop's end
        // (Engine+ABLoop.swift); otherwise the stop is cleared (SET to -1).
        let loopStop = abLoopStop(forSeekTo: seek.position)
        abLoop.segmentStop = loopStop
        if rate > 0, let loopStop {
            flags |= GST_SEEK_FLAG_SEGMENT.rawValue
            event = gst_event_new_seek(rate, GST_FORMAT_TIME, GstSeekFlags(rawValue: flags),
                                       GST_SEEK_TYPE_SET, gint64(seek.position.nanoseconds), GST_SEEK_TYPE_SET, gint64(loopStop.nanoseconds))
            abLoop.segmentSeqnum = gst_event_get_seqnum(event)
        } else if rate > 0 {
            // The stop is set to none (SET -1), not left as it was (NONE): after backwards play
            // the segment's stop is where that began, and kept it ended forward play there
            // (EOS at 1.6 s of a 10 s clip) or, a hair before the start, failed the seek
            // (`gst_segment_do_seek: assertion 'start <= stop' failed`, after `rate -0.01`); the
            // same clears a stop an A-B loop left.
            event = gst_event_new_seek(rate, GST_FORMAT_TIME, GstSeekFlags(rawValue: flags),
                                       GST_SEEK_TYPE_SET, gint64(seek.position.nanoseconds), GST_SEEK_TYPE_SET, -1)
        } else {
            event = gst_event_new_seek(rate, GST_FORMAT_TIME, GstSeekFlags(rawValue: flags),
                                       GST_SEEK_TYPE_SET, 0, GST_SEEK_TYPE_SET, gint64(seek.position.nanoseconds))
        }
        // ASYNC_DONE carries no seek seqnum through playbin, and one left from an earlier async
        // state change may still be queued: the marker splits older ASYNC_DONEs from the seek's.
        seeks.markerSeen = false
        seeks.markerSeqnum = BusMarker.post(.seek, on: playbin)
        featuresSeekIssued(to: seek.position)
        if facts.isLiveWindow {
            sendLiveSeek(event, to: playbin, position: seek.position)
        } else if gst_element_send_event(playbin, event) == 0 { // takes ownership of the event
            let error = seekFailure(to: seek.position)
            publish(.warning(error))
            return error
        }
        noteSeekIssued(seek)
        return nil
    }

    /// Records a seek just sent to playbin or to the route (loop thread): the statistics, when and
    /// where it was issued, and the seeking state published.
    func noteSeekIssued(_ seek: SeekRequest) {
        statistics.seekExecuted()
        seeks.issuedAt = Engine.now()
        seeks.issuedPosition = seek.position
        playback.inputs.seeking = true
        playback.inputs.ended = false
        updateState()
    }

    /// The warning for a seek to `position` that playbin refused.
    func seekFailure(to position: MediaTime) -> PlayerError {
        PlayerError(kind: .other, element: "playbin", message: "seek to \(position.formatted(fractionDigits: 3)) failed", uri: facts.uri)
    }

    /// ASYNC_DONE after a seek (or a route's answer, `landedAt`): report the landed position, restore the target state.
    func seekCompleted(landedAt: MediaTime? = nil) {
        guard let issued = seeks.issuedAt else { return }
        seeks.issuedAt = nil
        statistics.seekLanded(latencyNanoseconds: Engine.now() - issued)
        // A request held while this seek was in flight goes now, and its landing is the one
        // reported (the state stays `seeking`); a refused one leaves this landing to report.
        let next = seeks.throttle.landed(now: Engine.now())
        if case .execute(let seek) = next {
            timers.seek?.destroy(); timers.seek = nil
            let error = executeSeek(seek)
            seekIssued(error)
            if error == nil { return }
        } else {
            carryOut(next)
        }
        let landed = landedAt ?? backStepLanding() ?? pipeline?.queryPosition() ?? seeks.issuedPosition
        hub.updateSnapshot { $0.position = landed }
        playback.inputs.seeking = false
        observers.playheadJumped(to: landed)
        publish(.seekDone(landed))
        publish(.position(landed, duration: facts.duration))
        resolveIssuedSeeks(at: landed)
        applyTargetState()
        updateState()
        if frameSteps.underWay?.forward == false { frameStepLanded(at: landed) } else { runNextFrameStep() }
    }

    /// The slowest rate an instant rate change goes from or to. Below it the sinks' QoS across
    /// the switch fails GStreamer's own check (`gst_event_new_qos: assertion 'diff >= 0 || -diff
    /// <= timestamp' failed`, seen switching from 1 to 0.01–0.03); the flushing seek is clean
    /// down to ``PlaybackRate/minimumMagnitude``.
    static let slowestInstantRate = 0.25

    /// Applies a new rate (checked by the caller: `PlayerConfiguration.checkRate(_:)`). Same
    /// direction, both rates at least ``slowestInstantRate``: first an instant rate change
    /// (`GST_SEEK_FLAG_INSTANT_RATE_CHANGE`, no flush); otherwise, or where the demuxer refuses
    /// it, a flushing seek at the current position.
    /// `fromSetter`: the rate ``Player/setRate(_:)`` recorded (else a feature's).
    func setRate(_ newRate: Double, fromSetter: Bool = false) {
        preconditionOnLoop()
        guard newRate != playback.rate else { return hub.settle(.rate, fromSetter: fromSetter) { $0.rate = newRate } }
        if routing != nil {               // a route (a renderer) has no rate control here
            // The setter recorded the rate at once: the snapshot and every door go back to the one that plays.
            hub.settle(.rate, fromSetter: fromSetter) { [rate = playback.rate] in $0.rate = rate }
            publish(.warning(PlayerError(kind: .invalidArgument, message: "the playback route plays at normal speed: rate \(newRate) not applied", uri: facts.uri)))
            return publish(.rateChanged(playback.rate))
        }
        let oldRate = playback.rate
        playback.rate = newRate
        statistics.current.rate = newRate
        hub.settle(.rate, fromSetter: fromSetter) { $0.rate = newRate }
        publish(.rateChanged(newRate))
        let inputs = playback.inputs
        guard inputs.loaded, inputs.prerolled, !inputs.failed, !facts.isLive, let pipeline, let playbin = pipeline.element else { return }
        if (oldRate > 0) == (newRate > 0), configuration.instantRateChange, !inputs.seeking,
           min(oldRate.magnitude, newRate.magnitude) >= Self.slowestInstantRate,
           let event = gst_event_new_seek(newRate, GST_FORMAT_TIME, GST_SEEK_FLAG_INSTANT_RATE_CHANGE,
                                          GST_SEEK_TYPE_NONE, -1, GST_SEEK_TYPE_NONE, -1),
           gst_element_send_event(playbin, event) != 0 {
            statistics.current.instantRateChanges += 1
            return
        }
        // A user action, not a scrub: not throttled (it still counts for the throttle window).
        // Going backwards from the end (after EOS) starts at the duration.
        var position = pipeline.queryPosition() ?? .zero
        if inputs.ended, newRate < 0, let duration = facts.duration { position = duration }
        seeks.throttle.noteExecuted(now: Engine.now())
        executeSeek(SeekRequest(position: position, mode: .accurate))
    }
}
