import CGStreamer
import GLibSupport

/// Network sources (loop thread): souphttpsrc settings through `source-setup`, and the
/// retry-once policy of seed 001 for failures that are not the server's final word.
extension Engine {
    /// Connects playbin's `source-setup`: sets `timeout` (s) and `retries` (1: souphttpsrc resumes
    /// a dropped connection once by itself, with a Range request) on sources that have them, and
    /// turns souphttpsrc's `automatic-redirect` off (libsoup follows 20 redirects of a loop).
    /// The handler runs on whatever thread creates the source; it only sets properties.
    func connectSourceSetup() {
        guard let pipeline, let playbin = pipeline.object else { return }
        let box = CallbackBox<UInt32>(networkTimeoutSeconds)
        let id = CGStreamer_signal_connect_2(playbin, "source-setup", { _, source, data in
            guard let source, let data else { return }
            let timeout = CallbackBox<UInt32>.from(data).value
            if CGStreamer_has_property(source, "timeout") != 0 { CGStreamer_set_uint(source, "timeout", timeout) }
            if CGStreamer_has_property(source, "retries") != 0 { CGStreamer_set_int(source, "retries", 1) }
            // Redirects are followed by the Backend (followRedirect), which stops at a loop.
            if CGStreamer_has_property(source, "automatic-redirect") != 0 { CGStreamer_set_boolean(source, "automatic-redirect", 0) }
        }, box.retainedPointer, callbackBoxClosureRelease)
        pipeline.track(handler: id, on: playbin)
    }

    /// Sets or clears playbin's `download` flag (GST_PLAY_FLAG_DOWNLOAD, 0x80) before `uri` is
    /// set: on for http(s) when ``PlayerConfiguration/progressiveDownload`` is on or a feature
    /// asked for the download file (``FeatureDownload/keep(in:)``), off otherwise
    /// (uridecodebin itself only buffers to a file when the server gives a size and the media is
    /// not live or adaptive).
    func applyDownloadFlag(for uri: String) {
        guard let playbin = pipeline?.object else { return }
        let download: UInt32 = 0x80
        let network = URIScheme.isHTTP(uri)
        let flags = CGStreamer_get_uint(playbin, "flags")
        let file = downloadFile.current
        let wanted = (configuration.progressiveDownload || file.requested) && network
            && !file.withoutFile ? flags | download : flags & ~download
        if wanted != flags { CGStreamer_set_flags(playbin, "flags", wanted) }
    }

    /// After a network error: names a failure that came without any HTTP response (a
    /// ``ConnectionProbe`` tells a refused connection, an unknown host, a failed TLS handshake or
    /// an answer that is not HTTP from a timeout; those are final), else reloads once when it is not the server's final
    /// word (no HTTP status, or a 5xx; a 4xx or a redirect loop is final). Returns false when
    /// the error must be reported now. While a probe runs, later errors of the load are absorbed.
    func retryAfterNetworkError(_ error: PlayerError) -> Bool {
        if timers.connectionProbe != nil { return true }
        if let named = invalidResponse(error) {
            failUnlessFeatureActs(named)
            return true
        }
        switch followRedirect(error) {
        case .followed: return true
        case .stopped(let named):
            failUnlessFeatureActs(named)
            return true
        case .none: break
        }
        if error.cause == .timedOut, (facts.lastHTTPStatus ?? 0) == 0, !facts.connectionProbed, let uri = facts.redirects.last ?? facts.uri,
           startConnectionProbe(uri: uri, for: error) {
            return true
        }
        return reload(after: error)
    }

    /// Starts the probe for `error` (loop thread); false when the URI has no host to try. At most
    /// 5 s to connect and 5 s for the answer's head: a refusal, a TLS failure or an answer that is
    /// not HTTP answers at once; a silent peer only delays the reload.
    private func startConnectionProbe(uri: String, for error: PlayerError) -> Bool {
        facts.connectionProbed = true
        var started: ConnectionProbe?
        started = ConnectionProbe(uri: uri, timeoutSeconds: min(networkTimeoutSeconds, 5)) { [weak self] verdict in
            guard let self, let probe = started else { return }
            // Queued, so the events it raises are delivered like any other work's.
            self.loop.invoke { [weak self] in self?.connectionProbed(probe, verdict: verdict, error: error) }
        }
        timers.connectionProbe = started
        trace("connection probe \(started.map { "started for \($0.address)" } ?? "not started (no host)")")
        return started != nil
    }

    /// The probe's verdict (loop thread): a named, final error, or on to the reload policy.
    private func connectionProbed(_ probe: ConnectionProbe, verdict: ConnectionProbe.Verdict, error: PlayerError) {
        trace("connection probe of \(probe.address): \(verdict)")
        guard timers.connectionProbe === probe else { return }   // a later load or stop cancelled it
        timers.connectionProbe = nil
        var named = error
        switch verdict {
        case .refused:
            named.message = "the connection was refused (nothing listens at \(probe.address))"
            named.cause = .connectionRefused
        case .hostNotFound:
            named.message = "the host name of \(probe.address) does not resolve"
            named.cause = .hostNotFound
        case .tlsFailed(let reason):
            named.message = "the TLS handshake with \(probe.address) failed (\(reason)); is it an http:// port?"
            named.cause = .tlsHandshakeFailed
        case .invalidAnswer(let reason):
            named.message = "the server's answer is not valid HTTP (\(reason))"
            named.cause = .invalidResponse
        case .connected, .other:
            if reload(after: error) { return }
        }
        failUnlessFeatureActs(named)
    }

    /// Reloads the URI once after a failure that is not final, resuming at the last position with
    /// the same target state; warns instead of failing. Through `NULL`, not just `READY`:
    /// uridecodebin keeps its download buffer and decodebin across READY, and an MP3 reloaded
    /// that way failed at once ("Could not get stream size" from id3demux, 3 of 3).
    private func reload(after error: PlayerError) -> Bool {
        guard error.kind == .network, (error.httpStatus ?? 500) >= 500, error.cause != .tooManyRedirects,
              facts.networkRetriesLeft > 0, let uri = facts.uri else { return false }
        let position = hub.workingSnapshot.position
        let intent = playback.inputs.intent
        let target = playback.target
        let leftReady = playback.inputs.leftReady
        let retries = statistics.current.networkRetries
        let action = error.cause == .cannotResume ? "downloading it again from the start" : "reconnecting once"
        publish(.warning(PlayerError(kind: .network, element: error.element, message: "\(error.message) — \(action)",
                                     debug: error.debug, uri: uri, cause: error.cause)))
        featuresFinished()                       // they read the download buffer: before NULL closes it
        pipeline?.setState(GST_STATE_NULL)
        load(.success(uri), original: uri)
        facts.networkRetriesLeft = 0
        playback.inputs.intent = intent
        playback.inputs.leftReady = leftReady
        playback.target = target
        if let position, position > .zero { seeks.pending = (.absolute(position), .accurate) }
        statistics.current.networkRetries = retries + 1
        return true
    }

    /// ``PlayerConfiguration/networkTimeout`` in whole seconds, at least 1.
    var networkTimeoutSeconds: UInt32 { UInt32(clamping: max(1, configuration.networkTimeout.components.seconds)) }

    /// A live source was loaded (loop thread, right after `NO_PREROLL`): says once that it waits
    /// for data, then fails the load with ``PlayerError/Cause/noLiveData`` when playbin has not
    /// reached PLAYING (a live pipeline gets there only when data reaches the sinks) after the
    /// network timeout of wanting to play. Time spent paused does not count.
    func watchLiveSource() {
        let limit = configuration.networkTimeout
        publish(.waitingForLiveSource(timeout: limit))
        let tick = max(.milliseconds(100), limit / 4)
        facts.liveSilence = .zero
        timers.liveData = loop.addTimer(every: tick) { [unowned self] in
            guard self.playback.inputs.loaded, !self.playback.inputs.failed, self.pipeline?.state != GST_STATE_PLAYING else {
                self.timers.liveData = nil
                return false
            }
            if self.playback.targetPlaying { self.facts.liveSilence += tick }
            guard self.facts.liveSilence >= limit else { return true }
            self.timers.liveData = nil
            let error = PlayerError(kind: .network, message: "the live source sent no data within \(limit.formattedSeconds)",
                                    uri: self.facts.uri, cause: .noLiveData)
            self.failUnlessFeatureActs(error)
            return false
        }
    }
}
