import CGStreamer
import GLibSupport

/// One TCP (and, for `https`, TLS) connection to the host and port of a URI, made to name a
/// failure that souphttpsrc does not report: with libsoup 3 (GStreamer 1.22) a refused
/// connection, an unknown host and a failed TLS handshake all end in the same generic
/// "Internal data stream error" (the `GError` only reaches the debug log). GIO's
/// `GSocketClient` (`g_socket_client_connect_to_uri_async`, `tls` on for https, the network
/// timeout as its I/O timeout) tells them apart. Once connected it asks for the URI once
/// (`GET`, `Connection: close`) and reads the head of the answer (``AnswerReader``): libsoup's
/// "Could not parse HTTP response" (an endless or NUL-bearing header, an HTTP/0.9 answer, a
/// head over 64 KiB) reaches only souphttpsrc's debug log too, as the same generic error.
///
/// **Thread:** created, cancelled and completed on the loop thread: the async call returns to
/// the thread-default `GMainContext` it was started from, the player's own. The completion's
/// box is released by the callback, which GIO always calls exactly once (also when cancelled).
final class ConnectionProbe {
    /// What the connection attempt found.
    enum Verdict: Equatable, Sendable {
        /// The connection (and the TLS handshake) worked and the answer's head, if any came within
        /// the timeout, reads as HTTP: the failure was something else.
        case connected
        /// The server answered with something that is not a valid HTTP/1.x head: why, in words
        /// (``HTTPAnswerCheck/problem(in:ended:)``).
        case invalidAnswer(String)
        /// `G_IO_ERROR_CONNECTION_REFUSED`.
        case refused
        /// A `G_RESOLVER_ERROR`: the host name does not resolve.
        case hostNotFound
        /// A `G_TLS_ERROR` (or the peer closing during the handshake): the GError's message.
        case tlsFailed(String)
        /// Anything else (unreachable, timed out, cancelled): the GError's message.
        case other(String)
    }

    /// The host and port tried, `host:port`.
    let address: String
    private let cancellable: UnsafeMutablePointer<GCancellable>

    /// Parses `uri` (`g_uri_parse`) and starts the connection; nil when the URI has no host.
    /// `completion` runs on the loop thread with the verdict (not after ``cancel()`` has been
    /// called: a cancelled probe completes silently).
    init?(uri: String, timeoutSeconds: UInt32, completion: @escaping (Verdict) -> Void) {
        var parseError: UnsafeMutablePointer<GError>?
        guard let parsed = g_uri_parse(uri, G_URI_FLAGS_NONE, &parseError) else {
            g_error_free(parseError)
            return nil
        }
        defer { g_uri_unref(parsed) }
        guard let hostPointer = g_uri_get_host(parsed), hostPointer.pointee != 0 else { return nil }
        let host = String(cString: hostPointer)
        let tls = String(cString: g_uri_get_scheme(parsed)).lowercased() == "https"
        let port = g_uri_get_port(parsed) > 0 ? Int(g_uri_get_port(parsed)) : (tls ? 443 : 80)
        address = "\(host):\(port)"
        let request = AnswerReader.request(path: g_uri_get_path(parsed).map { String(cString: $0) } ?? "/",
                                           query: g_uri_get_query(parsed).map { String(cString: $0) },
                                           host: g_uri_get_port(parsed) > 0 ? address : host)
        cancellable = g_cancellable_new()
        let client = g_socket_client_new()
        defer { g_object_unref(client) }  // the pending task keeps its own reference
        g_socket_client_set_timeout(client, timeoutSeconds)
        g_socket_client_set_tls(client, tls ? 1 : 0)
        let box = CallbackBox<(UnsafeMutablePointer<GCancellable>, [UInt8], UInt32, (Verdict) -> Void)>((cancellable, request, timeoutSeconds, completion))
        g_object_ref(UnsafeMutableRawPointer(cancellable))  // released by the callback
        g_socket_client_connect_to_uri_async(client, uri, guint16(tls ? 443 : 80), cancellable, { source, result, data in
            guard let data else { return }
            let box = Unmanaged<CallbackBox<(UnsafeMutablePointer<GCancellable>, [UInt8], UInt32, (Verdict) -> Void)>>.fromOpaque(data).takeRetainedValue()
            let (cancellable, request, seconds, completion) = box.value
            defer { g_object_unref(UnsafeMutableRawPointer(cancellable)) }
            var error: UnsafeMutablePointer<GError>?
            let connection = g_socket_client_connect_to_uri_finish(UnsafeMutableRawPointer(source)?.assumingMemoryBound(to: GSocketClient.self),
                                                                   result, &error)
            if let connection {
                // Connected: ask once and judge the answer's head; the reader owns the connection now.
                if g_cancellable_is_cancelled(cancellable) == 0 {
                    AnswerReader.start(connection: connection, request: request, cancellable: cancellable, seconds: seconds) { problem in
                        completion(problem.map { .invalidAnswer($0) } ?? .connected)
                    }
                } else {
                    g_object_unref(UnsafeMutableRawPointer(connection))
                }
                return
            }
            let verdict = ConnectionProbe.verdict(for: error)
            if error != nil { g_error_free(error) }
            if g_cancellable_is_cancelled(cancellable) == 0 { completion(verdict) }
        }, box.retainedPointer)
    }

    /// Classifies the `GError` of `g_socket_client_connect_to_uri_finish` (nil: connected).
    static func verdict(for error: UnsafeMutablePointer<GError>?) -> Verdict {
        guard let error else { return .connected }
        let domain = error.pointee.domain
        let code = error.pointee.code
        let message = error.pointee.message.map { String(cString: $0) } ?? "unknown error"
        if domain == g_io_error_quark() && code == Int32(G_IO_ERROR_CONNECTION_REFUSED.rawValue) { return .refused }
        if domain == g_resolver_error_quark() { return .hostNotFound }
        if domain == g_tls_error_quark() { return .tlsFailed(message) }
        return .other(message)
    }

    /// Stops the attempt (`g_cancellable_cancel`); the completion is then not called. Idempotent.
    func cancel() { g_cancellable_cancel(cancellable) }

    deinit { g_object_unref(UnsafeMutableRawPointer(cancellable)) }
}
