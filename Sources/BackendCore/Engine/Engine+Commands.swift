import CGStreamer

/// Commands from ``Player`` (loop thread, queued): load, play, pause, stop, volume, mute.
extension Engine {
    /// READY, set `playbin.uri`, PAUSED (then PLAYING when autoplay is on). `start` is kept
    /// until preroll (a fraction until the duration is known).
    ///
    /// After a load that never prerolled — still opening, or failed with its ERROR not yet
    /// handled (a burst of loads) — playbin goes to NULL first. READY from there is no state
    /// change for playbin 1.22 when its last one returned FAILURE (READY→READY): it keeps that
    /// load's source group and its uridecodebin, and the next READY→PAUSED (`setup_next_source`)
    /// deactivates and reuses them under playbin's own locks while their streaming threads wait
    /// for those locks (STREAM_START in playbin's `handle_message`, `notify::active-pad` from its
    /// input-selector): the loop thread deadlocked in about half of the bursts of 1000 mixed
    /// loads. READY→NULL deactivates both groups and sets their uridecodebins to NULL and drops
    /// them, so the next load starts from fresh ones.
    ///
    /// `playing`: the URI playbin gets instead of the resolved one, without the features' say
    /// (the bytes of a short body kept in a file, ``playArrivedBody(after:)``).
    func load(_ resolved: Result<String, PlayerError>, original: String, start: StartPosition? = nil, playing replacement: String? = nil) {
        preconditionOnLoop()
        guard let pipeline, let playbin = pipeline.object else { return }
        featuresFinished()
        // Every feature has its say on the URI playbin gets (a cached copy, say); one may wait.
        var chosen: Result<String, PlayerError>?
        if let replacement {
            chosen = .success(replacement)
        } else if case .success(let uri) = resolved {
            guard let decided = featuresResolve(uri, start: start) else { return }   // that feature loads again itself
            chosen = decided
        }
        let settled = !playback.inputs.loaded || playback.inputs.prerolled
        resetForNewMedia(uri: try? resolved.get())
        if !settled { pipeline.setState(GST_STATE_NULL) }
        pipeline.setState(GST_STATE_READY)            // from NULL too: the bus drops what is posted in NULL (the epoch marker)
        pipeline.startNewEpoch()
        hub.updateSnapshot { $0.uri = self.facts.uri }
        switch (resolved, chosen) {
        case (.failure(let error), _), (.success, .failure(let error)?):
            fifo.release()
            publish(.uriLoaded((try? resolved.get()) ?? original))
            playback.inputs.loaded = true
            updateState()
            fail(error)
            return
        case (.success(let uri), let decided):
            publish(.uriLoaded(uri))
            let chosenURI = (try? decided?.get()) ?? uri
            prepareDownloadFile(for: chosenURI)
            let playURI = fifo.playURI(for: chosenURI)   // a FIFO: fd://N, never a blocking open
            applyDownloadFlag(for: playURI)
            CGStreamer_set_string(playbin, "uri", playURI)
            featuresWillPreroll(uri: uri)
        }
        playback.inputs.loaded = true
        updateState()
        playback.inputs.intent = configuration.autoplay ? .play : .none
        playback.target = configuration.autoplay ? GST_STATE_PLAYING : GST_STATE_PAUSED
        switch start {
        case .time(let time)?: seeks.pending = (.absolute(time), .accurate)
        case .fraction(let fraction)?: seeks.pending = (.fraction(fraction), .accurate)
        case nil: break
        }
        armOpenWatchdog()
        if pipeline.setState(GST_STATE_PAUSED) == GST_STATE_CHANGE_NO_PREROLL {
            facts.isLive = true
            hub.updateSnapshot { $0.isLive = true }
            if playback.targetPlaying { pipeline.setState(GST_STATE_PLAYING) }
            watchLiveSource()
        }
        // A FAILURE result is followed by an ERROR message on the bus, handled there.
    }

    /// Starts (or restarts) the preroll watchdog for the current load: the network limit for a
    /// network URI, the local one for a local file — also for the bytes of a short body played
    /// from their file, whose reported URI stays the server's. When it fires while those bytes
    /// play, the load's own short-body error is reported (``arrivedBodyFailed(_:)``): decodebin
    /// can drop a demuxer's error posted while it is still plugging it (an MP4 without its
    /// `moov`, seen about once in ten runs under load), and the open then never ends otherwise.
    func armOpenWatchdog() {
        timers.openWatchdog?.destroy()
        let isNetwork = facts.isNetworkURI && arrivedBody == nil
        let limit = configuration.openTimeout
            ?? (isNetwork ? max(.seconds(30), configuration.networkTimeout * 3) : .seconds(10))
        timers.openWatchdog = loop.addTimer(every: limit) { [unowned self] in
            self.timers.openWatchdog = nil
            let inputs = self.playback.inputs
            if inputs.loaded && !inputs.prerolled && !inputs.failed {
                let error = PlayerError(kind: .stream, element: "playbin",
                                        message: "could not open the media within \(limit.formattedSeconds): no stream became playable",
                                        missingPlugins: self.facts.missingPlugins, uri: self.facts.uri)
                self.failUnlessFeatureActs(self.arrivedBodyFailed(error) ?? error)     // a queue reports it and goes on
            }
            return false
        }
    }

    /// Forgets everything about the previous media; every component resets its own part.
    private func resetForNewMedia(uri: String?) {
        timers.cancelMediaTimers()
        forgetArrivedBody()
        seeks.reset()
        abLoop.resetForNewMedia()
        failFrameSteps(.replacedByLoad)
        let hadSize = facts.mediaSize != nil
        facts.reset(uri: uri)
        playback.resetForNewMedia()
        statistics.resetForNewMedia(rate: playback.rate)
        hub.storeStatistics(statistics.current)      // getters see the new media's (empty) statistics at once
        pipeline?.forgetTransitions()
        observers.playheadJumped(to: nil)
        hub.updateSnapshot { $0.resetMedia() }
        routing?.forgetMedia()
        featuresReset(uri: uri)
        if hadSize { publish(.mediaSize(nil)) }
        failPendingResults(.replacedByLoad, keepingLoads: true)
        beginLoadIdentity()
    }

    /// `fromSetter`: ``Player/play()`` recorded the intent in the snapshot (else a feature's call).
    func play(fromSetter: Bool = false) {
        preconditionOnLoop()
        defer { publishPauseIntent(fromSetter: fromSetter) }
        guard let pipeline else { return }
        let inputs = playback.inputs
        if !inputs.loaded || inputs.failed {
            if let uri = facts.uri {
                load(.success(uri), original: uri)
                playback.inputs.intent = .play
                playback.target = GST_STATE_PLAYING
            }
            return
        }
        playback.inputs.intent = .play
        playback.inputs.leftReady = true
        playback.target = GST_STATE_PLAYING
        if inputs.ended {
            requestSeek(playback.rate < 0 ? .fraction(1) : .absolute(.zero), mode: .accurate)
        }
        if inputs.prerolled && !inputs.buffering && !playback.inputs.seeking {
            pipeline.setState(GST_STATE_PLAYING)
        }
        routing?.route.routePlay()
        updateState()
    }

    /// `fromSetter`: ``Player/pause()`` recorded the intent in the snapshot (else a feature's call).
    func pause(fromSetter: Bool = false) {
        preconditionOnLoop()
        defer { publishPauseIntent(fromSetter: fromSetter) }
        guard let pipeline, playback.inputs.loaded, !playback.inputs.failed else { return }
        playback.inputs.intent = .pause
        playback.inputs.leftReady = true
        playback.target = GST_STATE_PAUSED
        pipeline.setState(GST_STATE_PAUSED)
        routing?.route.routePause()
        if playback.inputs.prerolled { reportPosition() }
        updateState()
    }

    func togglePause(fromSetter: Bool = false) {
        preconditionOnLoop()
        let inputs = playback.inputs
        if inputs.loaded && !inputs.failed && !inputs.ended && inputs.intent == .play {
            pause(fromSetter: fromSetter)
        } else {
            play(fromSetter: fromSetter)
        }
    }

    /// Puts the user's pause (the intent) in the snapshot, unless a newer ``Player`` request
    /// waits (``EventHub/settle(_:fromSetter:_:)``).
    func publishPauseIntent(fromSetter: Bool = false) {
        hub.settle(.pause, fromSetter: fromSetter) { [paused = playback.inputs.intent == .pause] in $0.pauseRequested = paused }
    }

    func stop() {
        preconditionOnLoop()
        guard let pipeline, playback.inputs.loaded else { return }
        playback.inputs.stopping = true
        updateState()
        routing?.route.routeStop()
        routing?.playing = false
        timers.cancelMediaTimers()
        seeks.reset()
        abLoop.segmentStop = nil
        failFrameSteps(.stopped)
        featuresFinished()
        playback.target = GST_STATE_READY
        pipeline.setState(GST_STATE_READY)
        fifo.release()
        pipeline.startNewEpoch()
        playback.inputs = PlayerStateInputs()
        updateState()
        failPendingResults(.stopped)
    }

    /// Applies the volume ``Player/setVolume(_:)`` recorded (`fromSetter`) or a feature's; without
    /// a pipeline the snapshot goes back to the volume in force.
    func setVolume(_ value: Double, fromSetter: Bool = false) {
        preconditionOnLoop()
        guard let playbin = pipeline?.object else {
            return hub.settle(.volume, fromSetter: fromSetter) { [volume = playback.volume] in $0.volume = volume }
        }
        playback.volume = value
        CGStreamer_set_double(playbin, "volume", value)
        routing?.route.routeSetVolume(value, muted: playback.muted)
        hub.settle(.volume, fromSetter: fromSetter) { $0.volume = value }
        publish(.volumeChanged(volume: value, muted: playback.muted))
    }

    /// Applies the mute flag ``Player/setMuted(_:)`` recorded (`fromSetter`) or a feature's;
    /// without a pipeline the snapshot goes back to the flag in force.
    func setMuted(_ value: Bool, fromSetter: Bool = false) {
        preconditionOnLoop()
        guard let playbin = pipeline?.object else {
            return hub.settle(.muted, fromSetter: fromSetter) { [muted = playback.muted] in $0.muted = muted }
        }
        playback.muted = value
        CGStreamer_set_boolean(playbin, "mute", value ? 1 : 0)
        routing?.route.routeSetVolume(playback.volume, muted: value)
        hub.settle(.muted, fromSetter: fromSetter) { $0.muted = value }
        publish(.volumeChanged(volume: playback.volume, muted: value))
    }
}
