import CSoup

/// One HTTP request as a handler sees it: a plain value copied out of libsoup's
/// `SoupServerMessage` on the server's thread. Any thread.
public struct HTTPRequest: Sendable {
    /// `GET`, `POST`… (`soup_server_message_get_method`).
    public var method: String
    /// The path, without the query (`g_uri_get_path`).
    public var path: String
    /// The decoded query parameters (libsoup's `GHashTable`).
    public var query: [String: String]
    /// Request headers by lower-cased name (`soup_message_headers_foreach`).
    public var headers: [String: String]
    /// The request body (`soup_message_body_flatten`).
    public var body: [UInt8]

    /// The body as UTF-8 text (invalid bytes replaced).
    public var text: String { String(decoding: body, as: UTF8.self) }
}

/// One HTTP response: status, type, body, extra headers. Any thread.
public struct HTTPResponse: Sendable {
    /// The status code (`soup_server_message_set_status`).
    public var status: Int
    /// The `Content-Type`.
    public var contentType: String
    /// The body.
    public var body: [UInt8]
    /// More headers (`soup_message_headers_replace`).
    public var headers: [(String, String)]

    /// A response with `body`.
    public init(status: Int = 200, contentType: String = "text/plain; charset=utf-8", body: [UInt8], headers: [(String, String)] = []) {
        self.status = status
        self.contentType = contentType
        self.body = body
        self.headers = headers
    }

    /// A text response.
    public static func text(_ text: String, status: Int = 200, contentType: String = "text/plain; charset=utf-8") -> HTTPResponse {
        HTTPResponse(status: status, contentType: contentType, body: Array(text.utf8))
    }
}

/// The way back for one request a handler answers later: the message stays paused
/// (`soup_server_message_pause`) until ``respond(_:)`` (`soup_server_message_unpause`).
///
/// **Thread:** ``respond(_:)`` from any thread (queued onto the server's thread); only the first
/// call counts.
public final class HTTPResponder: @unchecked Sendable {
    private let server: HTTPServer
    private var message: OpaquePointer?   // SoupServerMessage, referenced (server thread only)

    init(server: HTTPServer, message: OpaquePointer) {
        self.server = server
        self.message = message
        g_object_ref(UnsafeMutableRawPointer(message))
        soup_server_message_pause(message)
    }

    /// Sends `response` and resumes the message.
    public func respond(_ response: HTTPResponse) {
        respondRaw { HTTPResponder.apply(response, to: $0) }
    }

    /// Lets `fill` write the answer into the message (server thread), then resumes it.
    func respondRaw(_ fill: @escaping (OpaquePointer) -> Void) {
        server.onServerThread { [self] in
            guard let message else { return }
            self.message = nil
            fill(message)
            soup_server_message_unpause(message)
            g_object_unref(UnsafeMutableRawPointer(message))
        }
    }

    /// Writes status, headers and body into `message`. Server thread.
    static func apply(_ response: HTTPResponse, to message: OpaquePointer) {
        soup_server_message_set_status(message, UInt32(response.status), nil)
        let headers = soup_server_message_get_response_headers(message)
        for (name, value) in response.headers { soup_message_headers_replace(headers, name, value) }
        soup_message_headers_replace(headers, "Cache-Control", "no-store")
        response.body.withUnsafeBufferPointer { buffer in
            soup_server_message_set_response(message, response.contentType, SOUP_MEMORY_COPY,
                                             buffer.baseAddress.map { UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self) },
                                             gsize(buffer.count))
        }
    }

    deinit {
        // A handler that never answered: the message would stay paused forever; end it.
        if let message {
            let server = self.server
            server.onServerThread {
                HTTPResponder.apply(.text("no answer\n", status: 500), to: message)
                soup_server_message_unpause(message)
                g_object_unref(UnsafeMutableRawPointer(message))
            }
        }
    }
}

/// Why a server could not start. Any thread.
public struct HTTPServeError: Error, Sendable, CustomStringConvertible {
    /// One line: what failed (libsoup's or GIO's message).
    public let description: String
}
