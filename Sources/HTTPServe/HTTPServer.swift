import CSoup
import GLibSupport

/// A small HTTP/WebSocket server on libsoup 3 (`SoupServer`) running on a `GMainContext` thread
/// of its own: listens on one address (loopback unless told otherwise), answers routes with
/// handlers, requires an ``AccessToken`` on every route that asks for it — checked with this
/// server's `Host`/`Origin` and the body's size from the headers alone, before any body is read,
/// and with a time limit per request (``HTTPLimits``, HTTPServer+Gate.swift) —, serves files with
/// `Range` (libsoup answers ranges of a complete body itself) and WebSocket clients
/// (HTTPServer+WebSocket.swift). No HTTP or WebSocket parsing here: libsoup does it.
///
/// Shared by gstplay's web remote and, later, the casting feature (a local file served to a TV
/// under a random path).
///
/// **Threads:** every method from any thread (work is queued onto the server's thread,
/// `gstplay-http`); handlers run on that thread and must not block it (answer later through
/// the ``HTTPResponder``).
public final class HTTPServer: @unchecked Sendable {
    /// A route's handler: the request and the way to answer it (now or later).
    public typealias Handler = @Sendable (HTTPRequest, HTTPResponder) -> Void

    /// The port it listens on (the one picked when 0 was asked).
    public let port: UInt16
    /// The address it listens on, as given (`127.0.0.1` by default).
    public let address: String
    /// The token routes that require one check.
    public let token: AccessToken

    /// What every request meets before its body is read (HTTPServer+Gate.swift).
    public let limits: HTTPLimits

    let loop: MainLoopThread
    // Server thread only:
    var server: UnsafeMutablePointer<SoupServer>?
    var sockets = WebSocketTable()
    /// Requests not yet read whole, by message, for the request timeout (HTTPServer+Gate.swift).
    var pending: [UInt: PendingRequest] = [:]
    /// Kept-alive connections waiting for their next request, by socket.
    var idle: [UInt: IdleConnection] = [:]
    /// Refused connections still closing.
    var refused: [ObjectIdentifier: RefusedConnection] = [:]
    var requestClock: TimerSource?

    /// Listens on `address`:`port` (`soup_server_listen` on a `GInetSocketAddress`; port 0:
    /// a free one), every request held to `limits` (HTTPServer+Gate.swift). Throws
    /// ``HTTPServeError`` when the address is not an IP address or the port is taken; no thread
    /// is left running then.
    public init(address: String = "127.0.0.1", port: UInt16 = 0, token: AccessToken, limits: HTTPLimits = HTTPLimits()) throws(HTTPServeError) {
        self.address = address
        self.token = token
        self.limits = limits
        let loop = MainLoopThread(name: "gstplay-http")
        var result: Result<(UnsafeMutablePointer<SoupServer>, UInt16), HTTPServeError> = .failure(HTTPServeError(description: "the server thread did not start"))
        loop.invokeAndWait { result = HTTPServer.listen(address: address, port: port) }
        switch result {
        case .success(let (server, bound)):
            self.loop = loop
            self.server = server
            self.port = bound
        case .failure(let error):
            loop.quitAndJoin()
            throw error
        }
        loop.invokeAndWait { [self] in startRequestClock() }
    }

    /// Whose `Host` and `Origin` requests may name (``OriginPolicy``).
    public var originPolicy: OriginPolicy { OriginPolicy(address: address, port: port) }

    /// The base URL (`http://ADDRESS:PORT`).
    public var baseURL: String { "http://\(address.contains(":") ? "[\(address)]" : address):\(port)" }

    private static func listen(address: String, port: UInt16) -> Result<(UnsafeMutablePointer<SoupServer>, UInt16), HTTPServeError> {
        guard let socketAddress = g_inet_socket_address_new_from_string(address, UInt32(port)) else {
            return .failure(HTTPServeError(description: "'\(address)' is not an IP address"))
        }
        defer { g_object_unref(socketAddress) }
        let server = UnsafeMutableRawPointer(g_object_new_with_properties(soup_server_get_type(), 0, nil, nil)!).assumingMemoryBound(to: SoupServer.self)
        var error: UnsafeMutablePointer<GError>?
        guard soup_server_listen(server, socketAddress, SoupServerListenOptions(0), &error) != 0 else {
            let message = error.map { String(cString: $0.pointee.message) } ?? "cannot listen"
            if let error { g_error_free(error) }
            g_object_unref(UnsafeMutableRawPointer(server))
            return .failure(HTTPServeError(description: "cannot listen on \(address):\(port): \(message)"))
        }
        var bound: UInt16 = port
        if let listeners = soup_server_get_listeners(server) {
            if let first = listeners.pointee.data,
               let local = g_socket_get_local_address(first.assumingMemoryBound(to: GSocket.self), nil) {
                bound = local.withMemoryRebound(to: GInetSocketAddress.self, capacity: 1) { g_inet_socket_address_get_port($0) }
                g_object_unref(local)
            }
            g_slist_free(listeners)
        }
        return .success((server, bound))
    }

    /// Runs `work` on the server's thread (now when already there). Internal plumbing.
    func onServerThread(_ work: @escaping () -> Void) {
        if loop.isOnLoopThread { work() } else { loop.invoke(work) }
    }

    /// Adds a handler for requests whose path starts with `path` (`soup_server_add_handler`),
    /// behind the gate (`soup_server_add_early_handler`, HTTPServer+Gate.swift): a request
    /// naming another host or origin gets 403, one without the token (with `requiresToken`) 401,
    /// one with a body over ``HTTPLimits/maxBody`` 413 — all from the headers, before the body
    /// is read — and none of them reaches `handler`.
    public func route(_ path: String, requiresToken: Bool = true, _ handler: @escaping Handler) {
        let entry = Route(server: self, requiresToken: requiresToken, handler: handler)
        loop.invokeAndWait { [self] in
            guard let server else { return }
            soup_server_add_early_handler(server, path, { _, message, _, query, data in
                guard let message, let data else { return }
                CallbackBox<Route>.from(data).value.admit(message, query: query)
            }, CallbackBox(entry).retainedPointer, callbackBoxRelease)
            soup_server_add_handler(server, path, { _, message, _, query, data in
                guard let message, let data else { return }
                CallbackBox<Route>.from(data).value.run(message, query: query)
            }, CallbackBox(entry).retainedPointer, callbackBoxRelease)
        }
    }

    /// Serves the file at `localPath` under a fresh random path (`/files/HEX/NAME`) with its
    /// `Content-Type`; `Range` requests get 206 (libsoup). Without the token: anyone who knows
    /// the random path may fetch it (a TV cannot send a header). Returns the path.
    public func serveFile(_ localPath: String, contentType: String) -> String {
        let name = localPath.split(separator: "/").last.map(String.init) ?? "file"
        // g_uri_escape_string returns a newly allocated string: ours to g_free (without it
        // make test-asan reports a leak, one per served file).
        let raw = g_uri_escape_string(name, nil, 0)
        defer { g_free(raw) }
        let escaped = raw.map { String(cString: $0) } ?? name
        let path = "/files/\(AccessToken.random().text)/\(escaped)"
        route(path, requiresToken: false) { request, responder in
            responder.respondFile(localPath, contentType: contentType, head: request.method == "HEAD")
        }
        return path
    }

    /// Closes every WebSocket client and the listener, and joins the thread. Idempotent, with no
    /// flag of its own: the work empties what it closes (a second run finds nothing), is refused
    /// once the loop has quit, and `MainLoopThread.quitAndJoin()` lets only its first caller join.
    public func close() {
        loop.invokeAndWait { [self] in
            stopGate()
            closeAllWebSockets()
            if let server {
                soup_server_disconnect(server)
                g_object_unref(UnsafeMutableRawPointer(server))
                self.server = nil
            }
        }
        loop.quitAndJoin()
    }

    deinit { close() }

    /// One route: the token check, then the handler. Server thread.
    final class Route: Sendable {
        let server: HTTPServer
        let requiresToken: Bool
        let handler: Handler
        init(server: HTTPServer, requiresToken: Bool, handler: @escaping Handler) {
            self.server = server
            self.requiresToken = requiresToken
            self.handler = handler
        }

        /// The gate, once the headers are read: a refused request is answered and its
        /// connection closed here (``HTTPServer/refuse(_:with:)``).
        func admit(_ message: OpaquePointer, query: OpaquePointer?) {
            if let refusal = server.refusal(for: message, query: query, requiresToken: requiresToken) {
                server.refuse(message, with: refusal)
            }
        }

        func run(_ message: OpaquePointer, query: OpaquePointer?) {
            let request = HTTPServer.request(of: message, query: query)
            if requiresToken && !server.token.admits(request) {
                HTTPResponder.apply(.text("401 unauthorized: a token is required\n", status: 401,
                                          contentType: "text/plain; charset=utf-8"), to: message)
                return
            }
            handler(request, HTTPResponder(server: server, message: message))
        }
    }

    /// The request copied out of `message`. Server thread.
    static func request(of message: OpaquePointer, query: OpaquePointer?) -> HTTPRequest {
        let method = soup_server_message_get_method(message).map { String(cString: $0) } ?? "GET"
        let path = soup_server_message_get_uri(message).flatMap { g_uri_get_path($0) }.map { String(cString: $0) } ?? "/"
        var parameters: [String: String] = [:]
        if let query {
            var iterator = GHashTableIter()
            g_hash_table_iter_init(&iterator, query)
            var key: gpointer?, value: gpointer?
            while g_hash_table_iter_next(&iterator, &key, &value) != 0 {
                if let key, let value {
                    parameters[String(cString: key.assumingMemoryBound(to: CChar.self))] = String(cString: value.assumingMemoryBound(to: CChar.self))
                }
            }
        }
        var headers: [String: String] = [:]
        withUnsafeMutablePointer(to: &headers) { table in
            soup_message_headers_foreach(soup_server_message_get_request_headers(message), { name, value, data in
                guard let name, let value, let data else { return }
                data.assumingMemoryBound(to: [String: String].self).pointee[String(cString: name).lowercased()] = String(cString: value)
            }, table)
        }
        var body: [UInt8] = []
        if let bytes = soup_message_body_flatten(soup_server_message_get_request_body(message)) {
            var size: gsize = 0
            if let data = g_bytes_get_data(bytes, &size), size > 0 {
                body = Array(UnsafeRawBufferPointer(start: data, count: Int(size)))
            }
            g_bytes_unref(bytes)
        }
        return HTTPRequest(method: method, path: path, query: parameters, headers: headers, body: body)
    }
}
