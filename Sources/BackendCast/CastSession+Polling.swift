import BackendCore

/// The renderer's state and position, asked for ``CastSettings/pollInterval`` (4×/s by default:
/// `GetTransportInfo`, then `GetPositionInfo`), plus its `LastChange` events where it sends
/// them, turned into the core's route reports: playing or not, position and duration, the
/// item's end (STOPPED after PLAYING that we did not ask for). A poll that fails with a timeout
/// or because the renderer is gone ends the cast. **Thread:** the loop thread.
extension CastSession {
    func startPolling() {
        guard poll == nil, !closed, let context else { return }
        poll = context.loop.addTimer(every: feature.settings.pollInterval) { [weak self] in
            guard let self, !self.closed else { return false }
            self.pollOnce()
            return true
        }
        control.subscribeLastChange { [weak self] change in
            guard let state = change.transportState else { return }
            self?.feature.later { self?.transport(state) }
        }
    }

    private func pollOnce() {
        guard !polling else { return }
        polling = true
        control.transportInfo { [weak self] result in
            self?.feature.later {
                guard let self, !self.closed else { return }
                switch result {
                case .success(let info):
                    self.transport(info.state)
                    self.askPosition()
                case .failure(let error):
                    self.polling = false
                    self.pollFailed(error, doing: "GetTransportInfo")
                }
            }
        }
    }

    private func askPosition() {
        control.positionInfo { [weak self] result in
            self?.feature.later {
                guard let self else { return }
                self.polling = false
                guard !self.closed else { return }
                switch result {
                case .success(let info):
                    // A renderer still on the previous URI reports that one's position.
                    if let track = info.trackURI, let served = self.servedURL, track != served, !self.playedItem { return }
                    // Until the start seek, the renderer's position (from 0) is not the item's.
                    self.context?.route.reported(position: self.startAt == nil ? info.position.map { MediaTime(seconds: $0) } : nil,
                                                duration: info.duration.flatMap { $0 > 0 ? MediaTime(seconds: $0) : nil })
                    // A cast begun mid-item: seek once the renderer really plays (its position
                    // moved; renderers ignore a Seek while still opening the stream).
                    if let start = self.startAt, self.playedItem, (info.position ?? 0) > 0 {
                        self.startAt = nil
                        self.context?.transport.seek(.absolute(start))     // through the core: `seeking`, then seekDone
                    }
                case .failure(let error): self.pollFailed(error, doing: "GetPositionInfo")
                }
            }
        }
    }

    private func pollFailed(_ error: CastError, doing action: String) {
        switch error {
        case .gone, .timeout, .transport: feature.fail(self, error, doing: action)
        case .renderer: break          // a renderer that refuses one query is still there
        }
    }

    /// Runs a player command that mirrors what the renderer did, without echoing it back.
    private func follow(_ command: () -> Void) {
        followingRenderer = true
        command()
        followingRenderer = false
    }

    /// A transport state from a poll or a LastChange event.
    func transport(_ state: TransportState) {
        guard !closed, let context else { return }
        let fromRenderer = FeatureContext.now() > commandSentAt + 2_000_000_000
        switch state {
        case .playing:
            expectingStop = false
            playedItem = true
            context.route.reported(playing: true)
            if context.transport.intent == .pause, fromRenderer { follow { context.transport.play() } }      // played on the TV itself
        case .paused:
            context.route.reported(playing: false)
            if context.transport.intent == .play, fromRenderer { follow { context.transport.pause() } }      // paused on the TV itself
        case .stopped, .noMedia:
            context.route.reported(playing: false)
            if playedItem, !expectingStop, !endReported {
                endReported = true
                context.route.ended()
            }
        case .transitioning, .other:
            break
        }
    }
}
