import CGStreamer

/// Network sources (loop thread): souphttpsrc settings through `source-setup`, and the
/// retry-once policy of seed 001 for failures that are not the server's final word.
extension Engine {
    /// Connects playbin's `source-setup`: sets `timeout` (s) and `retries` (1: souphttpsrc resumes
    /// a dropped connection once by itself, with a Range request) on sources that have them.
    /// The handler runs on whatever thread creates the source; it only sets properties.
    func connectSourceSetup() {
        guard let pipeline, let playbin = pipeline.object else { return }
        let seconds = UInt32(clamping: max(1, configuration.networkTimeout.components.seconds))
        let box = CallbackBox<UInt32>(seconds)
        let id = CGStreamer_signal_connect_2(playbin, "source-setup", { _, source, data in
            guard let source, let data else { return }
            let timeout = CallbackBox<UInt32>.from(data).value
            if CGStreamer_has_property(source, "timeout") != 0 { CGStreamer_set_uint(source, "timeout", timeout) }
            if CGStreamer_has_property(source, "retries") != 0 { CGStreamer_set_int(source, "retries", 1) }
        }, box.retainedPointer, callbackBoxClosureRelease)
        pipeline.track(handler: id, on: playbin)
    }

    /// Sets or clears playbin's `download` flag (GST_PLAY_FLAG_DOWNLOAD, 0x80) before `uri` is
    /// set: on for http(s) when ``PlayerConfiguration/progressiveDownload`` is on or a cache is
    /// configured, off otherwise
    /// (uridecodebin itself only buffers to a file when the server gives a size and the media is
    /// not live or adaptive).
    func applyDownloadFlag(for uri: String) {
        guard let playbin = pipeline?.object else { return }
        let download: UInt32 = 0x80
        let network = uri.hasPrefix("http://") || uri.hasPrefix("https://")
        let flags = CGStreamer_get_uint(playbin, "flags")
        let wanted = (configuration.progressiveDownload || configuration.cache != nil) && network
            && !cacheDownload.current.withoutFile ? flags | download : flags & ~download
        if wanted != flags { CGStreamer_set_flags(playbin, "flags", wanted) }
    }

    /// After a network error that is not the server's final word (no HTTP status, or a 5xx; a
    /// 4xx is final): reload the URI once, resuming at the last position with the same target
    /// state; warns instead of failing. Returns false when the error must be reported.
    func retryAfterNetworkError(_ error: PlayerError) -> Bool {
        guard error.kind == .network, (error.httpStatus ?? 500) >= 500, facts.networkRetriesLeft > 0, let uri = facts.uri else { return false }
        let position = hub.snapshot.position
        let intent = playback.inputs.intent
        let target = playback.target
        let leftReady = playback.inputs.leftReady
        let retries = statistics.current.networkRetries
        publish(.warning(PlayerError(kind: .network, element: error.element,
                                     message: "\(error.message) — reconnecting once", debug: error.debug, uri: uri)))
        load(.success(uri), original: uri)
        facts.networkRetriesLeft = 0
        playback.inputs.intent = intent
        playback.inputs.leftReady = leftReady
        playback.target = target
        if let position, position > .zero { seeks.pending = (.absolute(position), .accurate) }
        statistics.current.networkRetries = retries + 1
        return true
    }
}
