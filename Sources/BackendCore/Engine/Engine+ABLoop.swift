import CGStreamer

/// The A-B loop's bookkeeping for the current media. **Thread:** a value owned by the engine on
/// the loop thread.
struct ABLoopState {
    /// The loop as last set (also in the snapshot).
    var loop = ABLoop()
    /// The stop of the segment seek in effect (`GST_SEEK_FLAG_SEGMENT`): playback there ends in
    /// `SEGMENT_DONE` instead of EOS. nil when no segment seek is in effect.
    var segmentStop: MediaTime?
    /// The seqnum of that segment seek's event: its demuxer's `SEGMENT_DONE` carries it (one
    /// from an earlier segment, flushed away, does not).
    var segmentSeqnum: guint32 = 0
    /// Jumps back made for the current media (for tests and statistics).
    var jumps = 0

    /// A new media (or stop): the points go, the count stays (as mpv's option does).
    mutating func resetForNewMedia() {
        loop = ABLoop(count: loop.count)
        segmentStop = nil
        jumps = 0
    }
}

/// The A-B loop on the loop thread, seamless by segment seeks: while the playhead is before the
/// loop's end, the seek that starts playback there is a segment seek (`gst_event_new_seek` with
/// `GST_SEEK_FLAG_SEGMENT`, stop = the end), so the demuxer ends the span with
/// `GST_MESSAGE_SEGMENT_DONE` instead of EOS; there ``handleSegmentDone()`` sends a
/// non-flushing segment seek back to the start (`GST_SEEK_FLAG_SEGMENT | GST_SEEK_FLAG_ACCURATE`,
/// no `GST_SEEK_FLAG_FLUSH`): the data of the next pass queues behind the last of this one, with
/// running time going on, so the sinks see no gap. The first seek is flushing and ACCURATE (the
/// loop starts at the frame of A). mpv's rules: points in either order loop the same span; a seek
/// past the end leaves the loop; `ab-loop-count` loops are made, then playback goes on.
extension Engine {
    /// Sets the loop (points and count); `jumpToStart` also goes to its start now (mpv's
    /// `ab-loop` command setting B at the playhead). Applied at once when the loop can run: a
    /// flushing segment seek from the playhead (or the start) when the playhead is before the
    /// end; nothing more when the loop was cleared (the segment in effect ends at its
    /// `SEGMENT_DONE`, where playback goes on without a seek of its own).
    func setABLoop(_ loop: ABLoop, jumpToStart: Bool = false) {
        preconditionOnLoop()
        if loop != abLoop.loop {
            abLoop.loop = loop
            hub.updateSnapshot { $0.abLoop = loop }
            publish(.abLoopChanged(loop))
        }
        applyABLoop(jumpToStart: jumpToStart)
    }

    /// mpv's `ab-loop` command: sets A at the playhead, then B (and goes back to A), then clears both.
    func cycleABLoop() {
        preconditionOnLoop()
        var loop = abLoop.loop
        let here = playheadForLoop()
        if loop.a == nil {
            loop.a = here
            setABLoop(loop)
        } else if loop.b == nil {
            loop.b = here
            setABLoop(loop, jumpToStart: true)
        } else {
            loop.a = nil
            loop.b = nil
            setABLoop(loop)
        }
    }

    /// The stop for a seek to `position` when the A-B loop applies to it (forwards, the loop
    /// active, `position` before its end); nil for a plain seek. Used by ``executeSeek(_:)``.
    func abLoopStop(forSeekTo position: MediaTime) -> MediaTime? {
        guard playback.rate > 0, !facts.isLive, !facts.isLiveWindow, routing == nil,
              let span = abLoop.loop.span, position < span.end else { return nil }
        return span.end
    }

    /// `GST_MESSAGE_SEGMENT_DONE`: the segment seek in effect reached its stop. Loop on (a
    /// non-flushing segment seek back to the start; a finite count goes down by one), or, when
    /// the loop ended or was cleared, go on from the stop (a non-flushing seek without a stop).
    func handleSegmentDone(_ message: UnsafeMutablePointer<GstMessage>) {
        // In PAUSED the demuxer may reach the stop before the seek's preroll completes: the
        // seqnum, not the seek's landing, tells this segment's SEGMENT_DONE from a stale one.
        guard let stop = abLoop.segmentStop, gst_message_get_seqnum(message) == abLoop.segmentSeqnum,
              let playbin = pipeline?.element, playback.inputs.prerolled, !playback.inputs.failed else { return }
        var flags = GST_SEEK_FLAG_ACCURATE.rawValue
        let start: MediaTime
        var end: MediaTime?
        if let span = abLoop.loop.span, span.end == stop {
            var loop = abLoop.loop
            if let count = loop.count { loop.count = count - 1 }
            abLoop.jumps += 1
            start = span.start
            // The last loop plays on past the end: no segment (and no SEGMENT_DONE) any more.
            if loop.isActive { end = span.end; flags |= GST_SEEK_FLAG_SEGMENT.rawValue }
            if loop != abLoop.loop {
                abLoop.loop = loop
                hub.updateSnapshot { $0.abLoop = loop }
                publish(.abLoopChanged(loop))
            }
        } else {
            start = stop
        }
        let event = gst_event_new_seek(playback.rate, GST_FORMAT_TIME, GstSeekFlags(rawValue: flags),
                                       GST_SEEK_TYPE_SET, gint64(start.nanoseconds),
                                       GST_SEEK_TYPE_SET, end.map { gint64($0.nanoseconds) } ?? -1)
        abLoop.segmentStop = end
        abLoop.segmentSeqnum = gst_event_get_seqnum(event)
        trace("A-B loop: segment done at \(stop), on from \(start) to \(end.map(String.init(describing:)) ?? "the end")")
        if gst_element_send_event(playbin, event) == 0 {   // takes ownership of the event
            abLoop.segmentStop = nil
            publish(.warning(PlayerError(kind: .other, element: "playbin", message: "the A-B loop could not seek back to \(start.formatted(fractionDigits: 3))", uri: facts.uri)))
        }
    }

    /// Applies the loop just set: a flushing segment seek to its start (`jumpToStart`, or the
    /// playhead past the end after the `ab-loop` command) or from the playhead when it is before
    /// the end and no segment with this stop is in effect.
    private func applyABLoop(jumpToStart: Bool) {
        let inputs = playback.inputs
        guard inputs.loaded, inputs.prerolled, !inputs.failed, let pipeline, let span = abLoop.loop.span,
              abLoopStop(forSeekTo: span.start) != nil else { return }
        let here = pipeline.queryPosition() ?? hub.workingSnapshot.position ?? .zero
        let target: MediaTime
        if jumpToStart {
            target = span.start
        } else if here < span.end, abLoop.segmentStop != span.end || inputs.ended {
            target = here
        } else {
            return   // past the end (mpv: no loop), or the segment in effect already stops there
        }
        seeks.throttle.noteExecuted(now: Engine.now())
        seekIssued(executeSeek(SeekRequest(position: target, mode: .accurate)))
    }

    /// Where a point set at "now" goes: the frame on screen when there is one, else the position.
    private func playheadForLoop() -> MediaTime? {
        shownFrame()?.position ?? pipeline?.queryPosition() ?? hub.workingSnapshot.position
    }

    /// Resolves `reply` with `value` after the running handler, when getters read what it changed.
    func answerAfterCommit<Value: Sendable>(_ reply: PendingReply<Value>, _ value: Value) {
        loop.invoke { reply.resolve(.success(value)) }
    }
}
