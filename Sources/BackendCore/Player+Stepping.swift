/// The A-B loop and frame stepping (Engine+ABLoop.swift, Engine+FrameStep.swift): mpv's
/// `ab-loop-a`, `ab-loop-b`, `ab-loop-count`, `ab-loop`, `frame-step` and `frame-back-step`.
///
/// **Threads:** any thread; like every command, each is queued onto the loop thread (never
/// inline). The loop is read back from ``snapshot`` (``PlayerSnapshot/abLoop``), stored there
/// when the loop thread applies it and announced by ``PlayerEvent/abLoopChanged(_:)``.
extension Player {
    /// Sets the A-B loop: points `a` and `b` (nil: unset, as mpv's `no`) and the loops to make
    /// (`count` nil: `inf`; 0: none, the points kept). Throws ``PlayerError/Kind/invalidArgument``
    /// for a negative count or point. Seamless: playback inside the span runs on a segment seek
    /// (`gst_event_new_seek` with `GST_SEEK_FLAG_SEGMENT`, stop = the later point, the first one
    /// flushing and ACCURATE); at `GST_MESSAGE_SEGMENT_DONE` a non-flushing segment seek goes
    /// back to the earlier point, so the sinks get the next pass without a gap. Forwards only
    /// (at a negative rate the points are kept and nothing loops). The points are forgotten at
    /// the next load.
    public func setABLoop(a: MediaTime?, b: MediaTime?, count: Int? = nil) throws(PlayerError) {
        let loop = try Self.validated(ABLoop(a: a, b: b, count: count))
        command { $0.setABLoop(loop) }
    }

    /// Changes the A-B loop as the loop thread has it (a point just set by ``cycleABLoop()``
    /// is kept): mpv's `set ab-loop-a`, `ab-loop-b`, `ab-loop-count`. Returns the loop now in
    /// effect, answered once ``snapshot`` holds it.
    /// - Throws: ``PlayerError/Kind/invalidArgument`` (nothing changed) for a negative count or
    ///   point; a ``PlayerError`` of kind ``PlayerError/Kind/other`` when the player is shut down.
    @discardableResult
    public func updateABLoop(_ change: @escaping @Sendable (inout ABLoop) -> Void) async throws(PlayerError) -> ABLoop {
        try await reply { engine, reply in
            var loop = engine.abLoop.loop
            change(&loop)
            switch Result(catching: { () throws(PlayerError) -> ABLoop in try Self.validated(loop) }) {
            case .success(let valid):
                engine.setABLoop(valid)
                engine.answerAfterCommit(reply, engine.abLoop.loop)
            case .failure(let error):
                reply.resolve(.failure(error))
            }
        }
    }

    /// ``cycleABLoop()``, answering with the loop now in effect once ``snapshot`` holds it.
    @discardableResult
    public func cycleABLoopAsync() async throws(PlayerError) -> ABLoop {
        try await reply { engine, reply in
            engine.cycleABLoop()
            engine.answerAfterCommit(reply, engine.abLoop.loop)
        }
    }

    /// mpv's `ab-loop` command (key `l`): the first call sets A at the frame shown (or the
    /// position), the second sets B there and goes back to A, the third clears both points.
    public func cycleABLoop() { command { $0.cycleABLoop() } }

    /// mpv's `frame-step`: pauses, then shows the next frame (a step event,
    /// `gst_event_new_step(GST_FORMAT_BUFFERS, 1, 1.0, TRUE, FALSE)`, sent to the video sink
    /// while PAUSED, ending in `GST_MESSAGE_STEP_DONE`). Returns the shown frame's timestamp.
    /// - Throws: ``PlayerError/Kind/invalidArgument`` when nothing with video is prerolled (or
    ///   live); otherwise when a load, stop or shutdown came first.
    @discardableResult
    public func frameStepAsync() async throws(PlayerError) -> MediaTime {
        try await reply { engine, reply in engine.frameStep(forward: true, reply: reply) }
    }

    /// mpv's `frame-back-step`: pauses, then shows the previous frame (a flushing ACCURATE seek
    /// into it: the shown frame's timestamp less half a frame, the frame duration from the
    /// negotiated caps' `framerate`). Returns the shown frame's timestamp; at the first frame
    /// it stays there. Throws as ``frameStepAsync()``.
    @discardableResult
    public func frameBackStepAsync() async throws(PlayerError) -> MediaTime {
        try await reply { engine, reply in engine.frameStep(forward: false, reply: reply) }
    }

    /// ``frameStepAsync()`` (`forward`) or ``frameBackStepAsync()`` without waiting (held keys).
    public func frameStep(forward: Bool) { command { $0.frameStep(forward: forward, reply: nil) } }

    /// `loop`, or the error for a negative point or count.
    static func validated(_ loop: ABLoop) throws(PlayerError) -> ABLoop {
        if let count = loop.count, count < 0 {
            throw PlayerError(kind: .invalidArgument, message: "the A-B loop count \(count) is negative (a number of loops, or inf)")
        }
        for point in [loop.a, loop.b].compactMap({ $0 }) where point < .zero {
            throw PlayerError(kind: .invalidArgument, message: "the A-B loop point \(point.formatted()) is negative")
        }
        return loop
    }
}
