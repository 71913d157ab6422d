import CGStreamer

/// HTTP redirects, followed by the Backend (loop thread). souphttpsrc's `automatic-redirect` is
/// off (``Engine/connectSourceSetup()``): libsoup 3 would follow a redirect loop 20 times (21
/// requests) before giving up with the last 3xx. Here a 3xx with a `Location` becomes the next
/// URI of the same load (playbin to NULL and READY, `uri` set, PAUSED again; no new `uriLoaded`, the
/// media facts, cache download and queue item stay those of the URI the user gave), until a
/// URI comes round again (a loop: two requests for a self-redirect) or after
/// ``Engine/maximumRedirects`` hops. Only http and https targets are followed
/// (``Engine/isHTTPScheme(_:)``): anything else ends the load with
/// ``PlayerError/Cause/redirectRefused``.
extension Engine {
    /// The most redirects one load follows (libsoup: 20; chains that long are not met in practice).
    static let maximumRedirects = 10

    /// What ``followRedirect(_:)`` did.
    enum RedirectOutcome {
        /// Not a redirect: the error goes on to the reload policy.
        case none
        /// The next URI is loading.
        case followed
        /// A loop or too many hops: this named error ends the load.
        case stopped(PlayerError)
    }

    /// True when `uri`'s scheme is `http` or `https` (`g_uri_peek_scheme`, which lowercases it). A redirect
    /// to any other scheme (`file://`, `fd://`, `data:`, `appsrc://`…) would make a remote server
    /// open a local file or resource under the http URL the user gave: refused.
    static func isHTTPScheme(_ uri: String) -> Bool {
        // Interned by GLib (`g_intern_string`): not ours to free.
        guard let scheme = g_uri_peek_scheme(uri).map({ String(cString: $0) }) else { return false }
        return scheme == "http" || scheme == "https"
    }

    /// `uri` cut to 200 characters for a message (a `data:` URI can be megabytes long).
    static func shortened(_ uri: String) -> String {
        uri.count > 200 ? String(uri.prefix(200)) + "…" : uri
    }

    /// True for an `http-headers` message about another URI than the one fetched now: souphttpsrc
    /// posts it from libsoup's thread, so an answer to the previous hop (playbin's source may send
    /// a request twice) can arrive after the next hop began. Seen in a full test run: a stale
    /// `Location` made a chain look like a loop.
    func isStaleRedirectResponse(_ structure: UnsafePointer<GstStructure>) -> Bool {
        guard let current = facts.redirects.last, let uri = gst_structure_get_string(structure, "uri") else { return false }
        return String(cString: uri) != current
    }

    /// Keeps the `Location` of a 3xx `http-headers` message and returns true (the message is
    /// not the media's response: the cache must not see it); false for any other status.
    func absorbRedirect(_ structure: UnsafePointer<GstStructure>, status: Int?) -> Bool {
        guard let status, (300..<400).contains(status), status != 304,
              let value = gst_structure_get_value(structure, "response-headers"),
              let headers = gst_value_get_structure(value) else { return false }
        for index in 0..<gst_structure_n_fields(headers) {
            guard let name = gst_structure_nth_field_name(headers, UInt32(index)),
                  String(cString: name).lowercased() == "location",
                  let text = gst_structure_get_string(headers, name) else { continue }
            facts.redirectLocation = String(cString: text)
            return true
        }
        return false
    }

    /// After an error: when the last response was a redirect with a `Location`, loads its
    /// target (resolved against the URI that answered, `g_uri_resolve_relative`), or stops at a
    /// loop or after ``maximumRedirects`` hops with a ``PlayerError/Cause/tooManyRedirects`` error.
    func followRedirect(_ error: PlayerError) -> RedirectOutcome {
        guard error.kind == .network, let status = error.httpStatus, (300..<400).contains(status),
              let location = facts.redirectLocation, let original = facts.uri,
              let pipeline, let playbin = pipeline.object else { return .none }
        let current = facts.redirects.last ?? original
        var resolveError: UnsafeMutablePointer<GError>?
        guard let target = String(takingGLibString: g_uri_resolve_relative(current, location, G_URI_FLAGS_NONE, &resolveError)) else {
            g_error_free(resolveError)
            var named = error
            named.message = "the server redirected to an invalid location '\(location)'"
            return .stopped(named)
        }
        var named = error
        if !Self.isHTTPScheme(target) {
            named.cause = .redirectRefused
            named.message = "the server redirected to '\(Self.shortened(target))': a redirect may only lead to http:// or https://"
            return .stopped(named)
        }
        named.cause = .tooManyRedirects
        if target == original || facts.redirects.contains(target) {
            // No URI in the text: the CLI appends "(HTTP 302)" unless the text already has the number.
            named.message = "too many redirects: a redirect loop (the server redirected to a URI already requested)"
            return .stopped(named)
        }
        if facts.redirects.count >= Self.maximumRedirects {
            named.message = "too many redirects (more than \(Self.maximumRedirects))"
            return .stopped(named)
        }
        trace("redirect \(status) to \(target)")
        facts.redirects.append(target)
        facts.redirectLocation = nil
        facts.lastHTTPStatus = nil
        // The 3xx attempt never prerolled: through NULL, as ``load(_:original:start:)`` does after
        // such a load, so that the next READY→PAUSED starts from fresh source groups instead of
        // reusing the failed attempt's under playbin's locks. READY again after it: the bus drops
        // what is posted in NULL (the epoch marker).
        pipeline.setState(GST_STATE_NULL)
        pipeline.setState(GST_STATE_READY)
        pipeline.startNewEpoch()          // the failed attempt's later messages are dropped
        applyDownloadFlag(for: target)
        CGStreamer_set_string(playbin, "uri", target)
        pipeline.setState(GST_STATE_PAUSED)
        return .followed
    }
}
