import CGStreamer

/// Network sources (loop thread): souphttpsrc settings through `source-setup`, and the
/// retry-once policy of seed 001 for failures that are not the server's final word.
extension Engine {
    /// True when the current URI is fetched over HTTP(S).
    var isNetworkURI: Bool {
        guard let uri else { return false }
        return uri.hasPrefix("http://") || uri.hasPrefix("https://")
    }

    /// Connects playbin's `source-setup`: sets `timeout` (s) and `retries` (1: souphttpsrc resumes
    /// a dropped connection once by itself, with a Range request) on sources that have them.
    /// The handler runs on whatever thread creates the source; it only sets properties.
    func connectSourceSetup() {
        guard let playbin else { return }
        let timeout = configuration.networkTimeoutSeconds
        let box = CallbackBox<UInt32>(timeout)
        let id = CGStreamer_signal_connect_2(UnsafeMutableRawPointer(playbin), "source-setup", { _, source, data in
            guard let source, let data else { return }
            let timeout = CallbackBox<UInt32>.from(data).value
            if CGStreamer_has_property(source, "timeout") != 0 { CGStreamer_set_uint(source, "timeout", timeout) }
            if CGStreamer_has_property(source, "retries") != 0 { CGStreamer_set_int(source, "retries", 1) }
        }, box.retainedPointer, callbackBoxClosureRelease)
        signalHandlers.append((UnsafeMutableRawPointer(playbin), id))
    }

    /// After a network error that is not an HTTP error status: reload the URI once, resuming at
    /// the last position with the same target state; warns instead of failing. Returns false
    /// when the error must be reported.
    func retryAfterNetworkError(_ error: PlayerError) -> Bool {
        guard error.kind == .network, error.httpStatus == nil, networkRetriesLeft > 0, let uri else { return false }
        let position = hub.snapshot.position
        let intent = inputs.intent
        let target = targetState
        let leftReady = inputs.leftReady
        publish(.warning(PlayerError(kind: .network, element: error.element,
                                     message: "\(error.message) — reconnecting once", debug: error.debug, uri: uri)))
        load(.success(uri), original: uri)
        networkRetriesLeft = 0
        inputs.intent = intent
        inputs.leftReady = leftReady
        targetState = target
        if let position, position > .zero { pendingSeekBeforePreroll = (.absolute(position), .accurate) }
        stats.networkRetries += 1
        return true
    }
}
