import CGStreamer

/// The route extension point on the engine's side (loop thread): a feature's ``PlaybackRoute``
/// plays the media while `playbin` is held in PAUSED (``PlaybinPipeline/holdsPaused``); the
/// commands in Engine+Commands/Engine+Seek hand their work to ``routing`` when it is set, and the
/// route's reports come in here and feed the same state, snapshot and events as the bus does.
extension Engine {
    /// Holds `playbin` in PAUSED and makes `route` the one that plays (``FeatureRoute/begin(_:)``).
    func beginRoute(_ route: any PlaybackRoute) {
        preconditionOnLoop()
        let start = routing?.position(now: Engine.now(), rate: 1, duration: facts.duration)
            ?? pipeline?.queryPosition() ?? hub.workingSnapshot.position
        routing = RouteState(route: route, position: start)
        pipeline?.holdsPaused = true
        if let pipeline, pipeline.state == GST_STATE_PLAYING || playback.targetPlaying, playback.inputs.prerolled {
            pipeline.setState(GST_STATE_PAUSED)
        }
        trace("route begins at \(start?.description ?? "-")")
    }

    /// The route's position now, nil without a route or a report.
    func routePosition() -> MediaTime? {
        routing?.position(now: Engine.now(), rate: 1, duration: facts.duration)
    }

    /// A route's report (``FeatureRoute/reported(playing:position:duration:)``).
    func routeReported(playing: Bool?, position: MediaTime?, duration: MediaTime?) {
        preconditionOnLoop()
        guard let routing else { return }
        if let duration, facts.duration == nil, !facts.isLive {
            facts.duration = duration
            facts.publishedDuration = duration
            hub.updateSnapshot { $0.duration = duration }
            publish(.durationChanged(duration))
        }
        if let position, !playback.inputs.seeking {
            routing.report(position: position.clamped(to: facts.duration), now: Engine.now(), rate: 1, duration: facts.duration)
            hub.updateSnapshot { $0.position = routing.position }
        }
        if let playing { routing.playing = playing }
        if let playing, playing != playback.inputs.pipelinePlaying {
            playback.inputs.pipelinePlaying = playing
            if playing { playback.inputs.leftReady = true }
            updateState()
        }
    }

    /// The position tick while routed: the route's position, while it plays.
    func routeTick() {
        guard let routing, routing.playing, playback.inputs.loaded, playback.inputs.prerolled, !playback.inputs.seeking,
              !playback.inputs.ended, hub.hasListeners else { return }
        reportPosition()
    }

    /// Sends a seek the throttle let through to the route (``executeSeek(_:)`` while routed).
    func routeSeek(_ seek: SeekRequest, on routing: RouteState) {
        featuresSeekIssued(to: seek.position)
        seeks.markerSeen = false         // a late local ASYNC_DONE is not this seek's
        noteSeekIssued(seek)
        routing.route.routeSeek(to: seek.position)
    }

    /// The route's seek landed (``FeatureRoute/seekDone(at:)``).
    func routeSeekDone(at position: MediaTime) {
        preconditionOnLoop()
        guard let routing, seeks.inFlight else { return }
        routing.set(position: position, now: Engine.now())
        seekCompleted(landedAt: position)
    }

    /// The route played the item to its end (``FeatureRoute/ended()``): the local end-of-stream path.
    func routeEnded() {
        preconditionOnLoop()
        guard routing != nil, playback.inputs.loaded, !playback.inputs.failed, !playback.inputs.ended else { return }
        // The item's end: its duration when known (renderers report whole seconds, late).
        let position = facts.duration ?? routePosition() ?? .zero
        featuresFinished()
        switch featuresEndOfStream() {
        case .proceed: break
        case .stop: return stop()
        case .advance, .retry: return
        }
        routing?.playing = false
        hub.updateSnapshot { $0.position = position }
        publish(.position(position, duration: facts.duration))
        playback.inputs.ended = true
        playback.inputs.seeking = false
        seeks.issuedAt = nil
        resolveIssuedSeeks(at: position)
        updateState()
        publish(.endOfStream(position: position))
    }

    /// Gives playback back to `playbin` (``FeatureRoute/end(resumeAt:)``): released from
    /// PAUSED, a seek to where the route was, then the user's target state.
    func endRoute(resumeAt: MediaTime?) {
        preconditionOnLoop()
        guard let routing else { return }
        let position = (resumeAt ?? routing.position(now: Engine.now(), rate: 1, duration: facts.duration))?
            .clamped(to: facts.duration)
        self.routing = nil
        pipeline?.holdsPaused = false
        playback.inputs.pipelinePlaying = pipeline?.state == GST_STATE_PLAYING
        if seeks.inFlight {               // a seek the route never answered: it lands where we resume
            seeks.issuedAt = nil
            playback.inputs.seeking = false
            resolveIssuedSeeks(at: position ?? .zero)
        }
        trace("route ends, resuming at \(position?.description ?? "-")")
        let inputs = playback.inputs
        guard inputs.loaded, !inputs.failed else { return updateState() }
        if !inputs.prerolled {
            if let position { seeks.pending = (.absolute(position), .accurate) }
        } else if !inputs.ended, let position {
            seeks.throttle.noteExecuted(now: Engine.now())
            executeSeek(SeekRequest(position: position, mode: .accurate))
        } else {
            applyTargetState()
        }
        updateState()
    }
}
