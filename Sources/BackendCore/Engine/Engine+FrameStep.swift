import CGStreamer

/// Frame steps asked for, and the one under way. **Thread:** a value owned by the engine on the
/// loop thread.
struct FrameStepState {
    /// One step: its direction and the caller waiting for the frame it lands on.
    struct Step {
        var forward: Bool
        var reply: PendingReply<MediaTime>?
        /// The frame shown when the step began (a forward step ends when a later one shows).
        var from: MediaTime?
    }

    /// Steps waiting their turn (for the pipeline to be PAUSED, or the step before to finish).
    var queued: [Step] = []
    /// The step sent (a step event or a seek) whose frame has not been shown yet.
    var underWay: Step?

    /// Takes every step, queued and under way (to fail them).
    mutating func takeAll() -> [Step] {
        defer { queued = []; underWay = nil }
        return (underWay.map { [$0] } ?? []) + queued
    }
}

/// Frame stepping on the loop thread, pausing as mpv does (`frame-step`, `frame-back-step`).
/// Forwards: a step event, `gst_event_new_step(GST_FORMAT_BUFFERS, 1, 1.0, TRUE, FALSE)`, sent
/// to the video sink while PAUSED; it ends with `GST_MESSAGE_STEP_DONE`. Backwards: a flushing
/// ACCURATE seek into the previous frame (the shown frame's timestamp less half a frame duration,
/// the duration from the video sink's negotiated caps' `framerate`): containers that round
/// timestamps (WebM's milliseconds) still land on the previous frame, not the one before. Each
/// step reports the timestamp of the frame then shown (the video sink's `last-sample`).
extension Engine {
    /// Pauses and queues one step; `reply` gets the shown frame's timestamp. Fails at once when
    /// nothing with video is prerolled (mpv: frame stepping does nothing with audio only).
    func frameStep(forward: Bool, reply: PendingReply<MediaTime>?) {
        preconditionOnLoop()
        let inputs = playback.inputs
        guard inputs.loaded, inputs.prerolled, !inputs.failed, !facts.isLive, routing == nil, pipeline != nil else {
            reply?.resolve(.failure(PlayerError(kind: .invalidArgument, message: facts.isLive ? "a live stream cannot step frames" : "nothing is playing", uri: facts.uri)))
            return
        }
        guard sinks.video != nil, facts.mediaSize != nil else {
            reply?.resolve(.failure(PlayerError(kind: .invalidArgument, message: "frame stepping needs video (this media has none)", uri: facts.uri)))
            return
        }
        if playback.target != GST_STATE_PAUSED || playback.inputs.intent != .pause { pause() }
        frameSteps.queued.append(FrameStepState.Step(forward: forward, reply: reply))
        runNextFrameStep()
    }

    /// Starts the next queued step once the pipeline is PAUSED, no seek is in flight and no step is under way.
    func runNextFrameStep() {
        guard frameSteps.underWay == nil, !frameSteps.queued.isEmpty, let pipeline,
              pipeline.state == GST_STATE_PAUSED, !seeks.inFlight, !playback.inputs.seeking else { return }
        var step = frameSteps.queued.removeFirst()
        step.from = shownFrame()?.position
        frameSteps.underWay = step
        if step.forward { stepForward(step) } else { stepBack(step) }
    }

    /// `GST_MESSAGE_STEP_DONE` from the video sink: the step skipped the frame shown, and the
    /// sink prerolls the next one a moment later (its `last-sample` changes, and the pipeline's
    /// PAUSED state, lost for the step, is committed again: its ASYNC_DONE is then on the bus
    /// ahead of any later seek's marker): looked for now and every 5 ms after, for at most 2 s
    /// (at the end of the stream no frame comes).
    func frameStepDone() {
        guard let step = frameSteps.underWay, step.forward, timers.frameStep == nil else { return }
        var looks = 0
        let lookForFrame = { [unowned self] () -> Bool in
            looks += 1
            guard let underWay = self.frameSteps.underWay, underWay.forward else { return false }
            let shown = self.shownFrame()?.position
            if let shown, (shown > (underWay.from ?? MediaTime(nanoseconds: -1)) && self.pipelineSettled()) || looks >= 400 {
                self.frameStepLanded(at: shown)
                return false
            }
            if looks >= 400 {
                self.frameStepLanded(at: underWay.from ?? self.hub.workingSnapshot.position ?? .zero)
                return false
            }
            return true
        }
        guard lookForFrame() else { return }
        timers.frameStep = loop.addTimer(every: .milliseconds(5)) { [unowned self] in
            let again = lookForFrame()
            if !again { self.timers.frameStep = nil }
            return again
        }
    }

    /// The step under way shows the frame at `position`: report it, answer, start the next.
    func frameStepLanded(at position: MediaTime) {
        guard let step = frameSteps.underWay else { return }
        frameSteps.underWay = nil
        hub.updateSnapshot { $0.position = position }
        publish(.position(position, duration: facts.duration))
        // Answered after this handler, once getters read the new position.
        if let reply = step.reply { loop.invoke { reply.resolve(.success(position)) } }
        runNextFrameStep()
    }

    /// No state change of the pipeline is under way (`gst_element_get_state` with no wait is not ASYNC).
    private func pipelineSettled() -> Bool {
        guard let playbin = pipeline?.element else { return true }
        return gst_element_get_state(playbin, nil, nil, 0) != GST_STATE_CHANGE_ASYNC
    }

    /// Fails every queued and running step (a new load, stop).
    func failFrameSteps(_ error: PlayerError) {
        timers.frameStep?.destroy(); timers.frameStep = nil
        for step in frameSteps.takeAll() { step.reply?.resolve(.failure(error)) }
    }

    /// The frame the video sink shows (playbin's `sample`, the sink's `last-sample`): its stream
    /// time and duration; nil without one.
    func shownFrame() -> (position: MediaTime, duration: MediaTime?)? {
        guard sinks.video != nil, let playbin = pipeline?.object, let raw = CGStreamer_get_object(playbin, "sample") else { return nil }
        let sample = OpaquePointer(raw)
        defer { gst_sample_unref(sample) }
        guard let buffer = gst_sample_get_buffer(sample), let segment = gst_sample_get_segment(sample) else { return nil }
        let none = CGStreamer_CLOCK_TIME_NONE()
        guard buffer.pointee.pts != none else { return nil }
        let duration = buffer.pointee.duration == none ? nil : MediaTime(nanoseconds: Int64(clamping: buffer.pointee.duration))
        let time = gst_segment_to_stream_time(segment, GST_FORMAT_TIME, buffer.pointee.pts)
        guard time != none else { return nil }
        var position = MediaTime(nanoseconds: Int64(clamping: time))
        // After an ACCURATE seek into a frame, the frame is clipped to the segment: its timestamp
        // is the seek's target and its duration the rest of the frame. Its own timestamp is its
        // end less a whole frame.
        if let duration, let whole = framerateDuration(), duration.nanoseconds < whole.nanoseconds * 9 / 10 {
            position = max(position + duration - whole, .zero)
        }
        return (position, duration)
    }

    /// One frame's duration: 1 / the `framerate` of the video sink's negotiated caps, else the
    /// shown buffer's duration; nil when neither is known (a still image, variable rate without durations).
    func videoFrameDuration() -> MediaTime? {
        framerateDuration() ?? shownFrame()?.duration
    }

    /// 1 / the `framerate` of the video sink's negotiated caps; nil when unknown or variable (0/1).
    private func framerateDuration() -> MediaTime? {
        if let video = sinks.video, let pad = gst_element_get_static_pad(video, "sink") {
            defer { gst_object_unref(UnsafeMutableRawPointer(pad)) }
            if let caps = gst_pad_get_current_caps(pad) {
                defer { gst_caps_unref(caps) }
                var numerator: gint = 0, denominator: gint = 1
                if gst_caps_get_size(caps) > 0, let structure = gst_caps_get_structure(caps, 0),
                   gst_structure_get_fraction(structure, "framerate", &numerator, &denominator) != 0, numerator > 0, denominator > 0 {
                    return MediaTime(nanoseconds: Int64(gst_util_uint64_scale_int(1_000_000_000, denominator, numerator)))
                }
            }
        }
        return nil
    }

    /// Sends the step event to the video sink; STEP_DONE finishes it (``frameStepDone()``).
    private func stepForward(_ step: FrameStepState.Step) {
        guard let video = sinks.video, let event = gst_event_new_step(GST_FORMAT_BUFFERS, 1, 1.0, 1, 0),
              gst_element_send_event(video, event) != 0 else {   // takes ownership of the event
            frameSteps.underWay = nil
            step.reply?.resolve(.failure(PlayerError(kind: .other, element: "video sink", message: "the video sink refused the frame step", uri: facts.uri)))
            return runNextFrameStep()
        }
    }

    /// A flushing ACCURATE seek into the previous frame; its landing (``seekCompleted(landedAt:)``)
    /// reports the frame shown. At the first frame nothing moves.
    private func stepBack(_ step: FrameStepState.Step) {
        let current = step.from ?? pipeline?.queryPosition() ?? .zero
        guard let duration = videoFrameDuration(), duration.nanoseconds > 0 else {
            frameSteps.underWay = nil
            step.reply?.resolve(.failure(PlayerError(kind: .other, message: "the video's frame rate is not known: cannot step back", uri: facts.uri)))
            return runNextFrameStep()
        }
        guard current.nanoseconds >= duration.nanoseconds / 2 else { return frameStepLanded(at: current) }
        let target = MediaTime(nanoseconds: current.nanoseconds - duration.nanoseconds / 2)
        trace("frame back step from \(current.nanoseconds) to \(target.nanoseconds) (frame \(duration.nanoseconds) ns)")
        seeks.throttle.noteExecuted(now: Engine.now())
        if let error = executeSeek(SeekRequest(position: target, mode: .accurate)) {
            frameSteps.underWay = nil
            step.reply?.resolve(.failure(error))
            runNextFrameStep()
        }
    }

    /// The position a seek that carried a back step landed at: the frame shown, nil when no back step is under way.
    func backStepLanding() -> MediaTime? {
        guard let step = frameSteps.underWay, !step.forward else { return nil }
        return shownFrame()?.position
    }
}
