import CGStreamer

/// The core's calls into its features (loop thread): every ``PlayerFeature`` notification, fanned
/// out in the order the features were given to ``Player`` (no answer comes back, so that order
/// changes nothing), and the extension points they registered (``FeatureExtensions``), each in
/// its own explicit order. The only place the engine talks to them.
extension Engine {
    /// The feature of type `type`, nil when there is none.
    func feature<Feature: PlayerFeature>(_ type: Feature.Type) -> Feature? {
        for feature in features { if let match = feature as? Feature { return match } }
        return nil
    }

    /// Attaches every feature (init, after the sinks exist, before the bus is watched), then
    /// chains the video filters they added (``installVideoFilters()``).
    func attachFeatures() {
        for feature in features { feature.attach(to: context) }
        installVideoFilters()
    }

    /// The URI `playbin` gets after every ``URIResolver`` had its say, in order; nil when one
    /// waits (it loads again itself); a refusal as a failure. `start` is the load's
    /// (``FeatureMedia/loadingStart``).
    func featuresResolve(_ uri: String, start: StartPosition? = nil) -> Result<String, PlayerError>? {
        context.loadingStart = start
        defer { context.loadingStart = nil }
        var chosen = uri
        for resolver in context.extensions.resolvers {
            switch resolver.resolve(chosen) {
            case .play(let replacement): chosen = replacement
            case .wait: return nil
            case .refuse(let error): return .failure(error)
            }
        }
        return .success(chosen)
    }

    /// Offers a bus message to the ``MessageInterceptor``s in order, then shows it to every
    /// feature; true when an interceptor consumed it (nobody else sees it then).
    func featuresConsume(_ message: UnsafeMutablePointer<GstMessage>) -> Bool {
        if context.extensions.interceptors.contains(where: { $0.intercept(message) == .consumed }) { return true }
        for feature in features { feature.observe(message: message) }
        return false
    }

    /// The ``EndOfItemPolicy``'s answer to the end of the stream (``EndDisposition/proceed`` without one).
    func featuresEndOfStream() -> EndDisposition {
        context.extensions.endOfItemPolicy?.endOfStream() ?? .proceed
    }

    /// The ``EndOfItemPolicy``'s answer to a fatal error (``EndDisposition/proceed`` without one).
    func featuresFailed(with error: PlayerError) -> EndDisposition {
        context.extensions.endOfItemPolicy?.failed(with: error) ?? .proceed
    }

    /// Tells every feature that the media is finished (EOS, stop, error, new load, teardown),
    /// then lets the load's download file go (``DownloadFile``: the features have read it).
    func featuresFinished() {
        for feature in features { feature.finished() }
        downloadFile.reset()
    }

    /// Tells every feature that the media changed (`uri` nil: stopped).
    func featuresReset(uri: String?) { for feature in features { feature.resetForNewMedia(uri: uri) } }

    /// Tells every feature that the load of `uri` (the original URI) is about to preroll.
    func featuresWillPreroll(uri: String) { for feature in features { feature.willPreroll(uri: uri) } }

    /// Tells every feature that the load prerolled.
    func featuresPrerolled() {
        context.inPrerolled = true
        defer { context.inPrerolled = false }
        for feature in features { feature.prerolled() }
    }

    /// Tells every feature that a seek to `position` is about to be sent (``executeSeek(_:)``).
    func featuresSeekIssued(to position: MediaTime) { for feature in features { feature.seekIssued(to: position) } }

    /// Shows every feature an event as it is published.
    func featuresObserve(_ event: PlayerEvent) { for feature in features { feature.observe(event) } }

    /// Tears every feature down (player shutdown).
    /// The extension points' registrations go with them: a feature keeps its context, which
    /// would otherwise keep the feature (and the loop thread the context holds) alive.
    func teardownFeatures() {
        for feature in features { feature.teardown() }
        context.extensions.removeAll()
        context.framesUnderOverlays?.clear()
    }

    /// The features' sections of the statistics.
    func featureStatistics() -> FeatureSections {
        var sections = FeatureSections()
        for feature in features { feature.contributeStatistics(to: &sections) }
        return sections
    }

    /// The features' sections of the media info.
    func featureMediaInfo() -> FeatureSections {
        var sections = FeatureSections()
        for feature in features { feature.contributeMediaInfo(to: &sections) }
        return sections
    }

    /// Sets the user's intent and the matching target state (``FeatureTransport/intent``).
    func restore(intent: PlaybackProgress.Intent) {
        switch intent {
        case .none: playback.inputs.intent = .none
        case .play: playback.inputs.intent = .play; playback.target = GST_STATE_PLAYING
        case .pause: playback.inputs.intent = .pause; playback.target = GST_STATE_PAUSED
        }
        publishPauseIntent()
    }
}

extension Engine {
    /// A gapless hand-over reached the sinks (``FeatureTransport/continueWithHandedOverMedia(uri:stalePositionsFrom:)``):
    /// the old media's facts, statistics and A-B loop points go — no field of the snapshot keeps
    /// the previous item's value — the new URI is announced, its duration asked, and its
    /// seekability and media size read again (the size from the video sink's caps, nil when the
    /// new item has no video; a later caps change still updates it).
    func continueWithHandedOverMedia(uri: String, stalePositionsFrom: MediaTime?) {
        if let short = arrivedBodyEnded() { publish(.warning(short)) }   // the end of the bytes that arrived
        forgetArrivedBody()
        let oldSize = facts.mediaSize
        facts.reset(uri: uri)
        facts.stalePositionsFrom = stalePositionsFrom
        statistics.resetForNewMedia(rate: playback.rate)
        abLoop.resetForNewMedia()
        hub.updateSnapshot { $0.resetMedia(); $0.uri = uri; $0.position = .zero }
        beginLoadIdentity()
        publish(.uriLoaded(uri))
        if let pipeline { hub.updateSnapshot { [seekable = pipeline.querySeekable()] in $0.isSeekable = seekable } }
        if let playbin = pipeline?.object, CGStreamer_get_int(playbin, "n-video") > 0 { checkMediaSize() }
        if facts.mediaSize == nil, oldSize != nil { publish(.mediaSize(nil)) }
        queryDuration()
    }
}
