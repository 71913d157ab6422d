import CSoup
import GLibSupport
import Glibc

/// One conditional request for a cached copy (RFC 9111 §4.3): `GET` with `If-None-Match` (the
/// stored ETag) and `If-Modified-Since` (the stored Last-Modified), read up to the status and
/// headers only, through libsoup 3 (`soup_session_send`, synchronous).
///
/// **Thread:** a worker thread, never the player's loop thread: the call blocks for up to the
/// timeout. Each call makes and drops its own `SoupSession`.
enum CacheValidator {
    /// What the server said.
    enum Outcome: Sendable, Equatable {
        /// 304: the copy is current; the response's `Cache-Control`.
        case notModified(CacheControl?)
        /// Any 2xx: the resource changed (the body is not read); its `Cache-Control`.
        case modified(CacheControl?)
        /// No answer, or another status: why.
        case failed(String)
    }

    /// Asks `uri` whether the copy described by `etag`/`lastModified` is current, giving up after
    /// `timeoutSeconds` of silence (`soup_session_set_timeout`); once `cancellable` is cancelled, a
    /// request under way returns at once with `failed`.
    static func validate(uri: String, etag: String?, lastModified: String?, timeoutSeconds: UInt32,
                         cancellable: Cancellable? = nil) -> Outcome {
        guard let message = soup_message_new("GET", uri) else { return .failed("not a valid http(s) URI") }
        defer { g_object_unref(UnsafeMutableRawPointer(message)) }
        let session = soup_session_new()
        defer { g_object_unref(UnsafeMutableRawPointer(session)) }
        soup_session_set_timeout(session, timeoutSeconds)
        let request = soup_message_get_request_headers(message)
        if let etag { soup_message_headers_append(request, "If-None-Match", etag) }
        if let lastModified { soup_message_headers_append(request, "If-Modified-Since", lastModified) }
        var error: UnsafeMutablePointer<GError>?
        if let stream = soup_session_send(session, message, cancellable?.pointer, &error) {
            g_input_stream_close(stream, nil, nil)       // the body is never read
            g_object_unref(UnsafeMutableRawPointer(stream))
        }
        if let error {
            let text = error.pointee.message.map { String(cString: $0) } ?? "unknown error"
            g_error_free(error)
            return .failed(text)
        }
        let status = soup_message_get_status(message)
        let header = soup_message_headers_get_one(soup_message_get_response_headers(message), "Cache-Control")
        let control = CacheControl(header: header.map { String(cString: $0) })
        switch status.rawValue {
        case 304: return .notModified(control)
        case 200..<300: return .modified(control)
        default: return .failed("HTTP status \(status.rawValue)")
        }
    }
}
