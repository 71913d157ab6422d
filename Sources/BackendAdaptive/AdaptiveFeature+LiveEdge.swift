import BackendCore

/// The live edge: the latency of a live stream to the end of its seekable window,
/// kept within a stated bound by a catch-up seek (``LiveEdgeGuard`` has the rule and the bound).
extension AdaptiveFeature {
    /// One look at the live edge, from the 250 ms timer on the loop thread once a live stream
    /// prerolled: asks the demuxer for the live window off the loop thread (`LiveWindowReader`; the answer
    /// becomes ``AdaptiveInfo/liveWindowStart``/``AdaptiveInfo/liveWindowEnd``), then measures the latency (the window end, moved on by the wall time since it last
    /// advanced, minus `gst_element_query_position`) into
    /// ``AdaptiveInfo/liveLatencySeconds``; when it is over the catch-up threshold, restarts the
    /// ABR on the start variant (its `connection-speed` is set on the demuxer's thread when the
    /// fragment under way ends: set from the loop thread it deadlocked against that thread,
    /// which posts the statistics under the demuxer's manifest lock), once the downloads are on
    /// it (the sinks play its stream: STREAM_START after the switch, not only its playlist
    /// fetched: 1.22's `hlsdemux` prepares a new stream for each switch and exposes it with its
    /// first buffer; a flushing seek before that cancelled the new stream for good and left the
    /// old one at the end of a playlist no longer refreshed — no further request, no ASYNC_DONE,
    /// seen in ~1 run of 4 of `LiveEdgeABRTests` with `GST_DEBUG=adaptivedemux:6` — and one made
    /// once it was exposed but before decodebin linked its group never reached the demuxer)
    /// it seeks to the window's end (a key-unit
    /// flushing seek through the core, fraction 1 of the live window) and publishes
    /// ``AdaptiveEvent/liveCatchUp(latency:)``. Nothing is measured while a seek is in flight
    /// (the position is the old one until it lands), nor until a window asked for after it came
    /// back (after a variant switch the seek lands in the new playlist's timeline); a seek the guard did not ask for, or a pause,
    /// is the user's time-shift (no catch-up until back near the edge). Catch-ups are made for HLS only (`hlsdemux`,
    /// `hlsdemux2`: the window end steps by whole segments, which the guard learns the segment
    /// duration from).
    func followLiveEdge(_ context: FeatureContext) {
        let progress = context.progress
        if progress.seeking {
            monitor.liveEdge.seekObserved(now: Self.seconds())
            forgetLiveWindow()
            // Until it lands: the edge minus the seek's target, not the last value kept.
            if monitor.liveEdge.latencyWhileSeeking(now: Self.seconds()) != nil { monitor.publishLiveEdge() }
            return
        }
        monitor.liveWindowReader.request(context, elements: monitor.elements) { [weak self, weak context] window in
            self?.monitor.setLiveWindow(window)
            self?.monitor.liveWindowFresh = true
            context?.media.updateLiveWindow(window)  // the core's live seeks resolve against it, not a query on the loop thread
        }
        if progress.intent == .pause { monitor.liveEdge.userTimeShifted() }
        guard !progress.ended, !progress.failed, let position = context.media.queryPosition() else { return }
        guard monitor.liveWindowFresh else {
            // A seek landed, no window read since: its timeline is the target's.
            if monitor.liveEdge.latencyWhileSeeking(now: Self.seconds(), position: position.seconds) != nil { monitor.publishLiveEdge() }
            return
        }
        let hls = monitor.elements.found.demuxerKind?.hasPrefix("hlsdemux") == true
        let start = monitor.policy.initialVariant(monitor.info.variants)
        // No window this time (the demuxer did not answer): the edge moves on with the wall time.
        let decision = monitor.liveEdge.update(windowEnd: monitor.info.liveWindowEnd?.seconds, position: position.seconds, now: Self.seconds(),
                                               startupBuffer: monitor.policy.effectiveMinBuffer, canCatchUp: hls,
                                               onStartVariant: start == nil || (monitor.info.current == start && monitor.currentVariantExposed))
        monitor.publishLiveEdge()
        monitor.elements.selector.holdForCatchUp(monitor.liveEdge.pending)
        switch decision {
        case .none:
            return
        case .restart:
            context.trace("live edge: behind, waiting for the start variant before seeking")
            monitor.elements.selector.restartForCatchUp()
        case .catchUp(let latency):
            context.trace("live edge: \(latency) s behind \(monitor.info.liveWindowEnd?.seconds ?? -1), seeking to it")
            monitor.elements.selector.restartForCatchUp()
            context.publish(AdaptiveEvent.liveCatchUp(latency: latency))
            context.transport.seek(.fraction(1), mode: .keyUnit)
            forgetLiveWindow()
        }
    }

    /// playbin posted STREAM_START: when a catch-up waits for the start variant's stream, looks
    /// at the edge again at once (queued after this message, `FeatureContext.runOnLoop(_:)`)
    /// rather than at the next 250 ms tick. Loop thread.
    func streamStartedForLiveEdge(_ context: FeatureContext) {
        guard monitor.info.isLive, monitor.liveEdge.pending else { return }
        context.runOnLoop { [weak self, weak context] in
            guard let self, let context, context.progress.isActive, context.progress.prerolled else { return }
            self.followLiveEdge(context)
        }
    }

    /// A seek: the position lands in the timeline of the window the demuxer has then, so windows
    /// asked for before it are dropped and the edge waits for one asked for after it.
    private func forgetLiveWindow() {
        monitor.liveWindowReader.reset()
        monitor.liveWindowFresh = false
    }
}
