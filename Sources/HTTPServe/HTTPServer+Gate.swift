import CSoup
import GLibSupport
import Glibc

/// What every request meets before a byte of its body is read, and how long it may take to arrive.
/// A plain value; any thread.
public struct HTTPLimits: Sendable {
    /// The largest request body accepted, in bytes: a larger `Content-Length` is answered 413
    /// from the headers alone; a chunked body (no length to check) gets 411.
    public var maxBody = 64 * 1024
    /// Seconds a client has to send one whole request, headers and body, from the moment the
    /// server waits for it (a new connection, or the end of the previous response on a kept-alive
    /// one): then it gets 408 and the connection is closed.
    public var requestTimeout: Double = 10
    /// 64 KiB a body, 10 s a request.
    public init() {}
}

/// Which `Host` and `Origin` a request may name: this server's own address and port, and when it
/// listens on loopback only a loopback name (`localhost`, `127.x.x.x`, `[::1]`) — never a domain
/// name, which a DNS rebinding could point at 127.0.0.1 (then `Origin` and `Host` agree with each
/// other, so comparing the two alone lets the page in). Off loopback (`--remote-bind`), `Origin`
/// must be `http://` + `Host` with this server's port. A request without `Origin` (not a
/// browser's cross-origin request) is judged by `Host` alone. Pure; any thread.
public struct OriginPolicy: Sendable, Equatable {
    /// The address the server listens on.
    public var address: String
    /// The port it listens on.
    public var port: UInt16

    /// A policy for a server on `address`:`port`.
    public init(address: String, port: UInt16) {
        self.address = address
        self.port = port
    }

    /// True when the server listens on a loopback address (127.0.0.0/8 or ::1).
    public var loopbackOnly: Bool { Self.isLoopbackHost(address) }

    /// Nil when a request with these headers may go on, else the reason (for a 403).
    public func refusal(host: String?, origin: String?) -> String? {
        if loopbackOnly, let host, !isOwnLoopbackAuthority(host) {
            return "host \(host) is not this server's (\(address):\(port))"
        }
        guard let origin else { return nil }
        let prefix = "http://"
        guard origin.lowercased().hasPrefix(prefix) else { return "origin \(origin) is not this server's" }
        let authority = String(origin.dropFirst(prefix.count))
        if loopbackOnly {
            return isOwnLoopbackAuthority(authority) ? nil : "origin \(origin) is not this server's"
        }
        guard let host, authority.lowercased() == host.lowercased(), Self.split(authority)?.port == port else {
            return "origin \(origin) is not this server's"
        }
        return nil
    }

    /// `name:port` with a loopback name and this server's port.
    private func isOwnLoopbackAuthority(_ authority: String) -> Bool {
        guard let (name, port) = Self.split(authority), port == self.port else { return false }
        return Self.isLoopbackHost(name)
    }

    /// `localhost`, an IPv4 literal in 127.0.0.0/8, or `::1` (brackets allowed).
    static func isLoopbackHost(_ name: String) -> Bool {
        let bare = name.hasPrefix("[") && name.hasSuffix("]") ? String(name.dropFirst().dropLast()) : name
        if bare.lowercased() == "localhost" || bare == "::1" { return true }
        let parts = bare.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 4, parts.allSatisfy({ !$0.isEmpty && $0.count <= 3 && $0.allSatisfy(\.isASCII) && UInt8($0) != nil }) else {
            return false
        }
        return parts[0] == "127"
    }

    /// `host:port` or `[v6]:port` split; nil without a numeric port.
    static func split(_ authority: String) -> (host: String, port: UInt16)? {
        guard let colon = authority.lastIndex(of: ":"), let port = UInt16(authority[authority.index(after: colon)...]) else { return nil }
        let host = String(authority[..<colon])
        if host.contains(":") && !(host.hasPrefix("[") && host.hasSuffix("]")) { return nil }
        return (host, port)
    }
}

/// The gate in front of every route (an early handler, run once the request's headers are read
/// and before its body is): this server's `Host`/`Origin` (``OriginPolicy``: 403), the token where
/// the route asks for it (401), the body's size from its headers (``HTTPLimits/maxBody``: 413;
/// chunked: 411). A refused request is answered at once on a connection taken from libsoup
/// (`soup_server_message_steal_connection`): without that libsoup reads, and for a normal route
/// keeps, the whole body before it writes any answer — a `Content-Length: 1500000000` took the
/// process to 3 GB — and answers `Expect: 100-continue` with `100 Continue`.
///
/// And the clock: a request must arrive whole within ``HTTPLimits/requestTimeout`` (408), and
/// a kept-alive connection may wait that long for its next one.
///
/// **Thread:** the server's thread.
extension HTTPServer {
    /// Why the request whose headers are in `message` (and `query`, libsoup's parsed query)
    /// may not go on, or nil.
    func refusal(for message: OpaquePointer, query: OpaquePointer?, requiresToken: Bool) -> HTTPResponse? {
        let request = HTTPServer.request(of: message, query: query)
        if let reason = originPolicy.refusal(host: request.headers["host"], origin: request.headers["origin"]) {
            return .text("403 forbidden: \(reason)\n", status: 403)
        }
        if requiresToken && !token.admits(request) {
            return .text("401 unauthorized: a token is required\n", status: 401)
        }
        let headers = soup_server_message_get_request_headers(message)
        switch soup_message_headers_get_encoding(headers) {
        case SOUP_ENCODING_CHUNKED:
            return .text("411 a request body needs a Content-Length (at most \(limits.maxBody) bytes)\n", status: 411)
        case SOUP_ENCODING_CONTENT_LENGTH where soup_message_headers_get_content_length(headers) > Int64(limits.maxBody):
            return .text("413 the request body is larger than \(limits.maxBody) bytes\n", status: 413)
        default:
            return nil
        }
    }

    /// Answers `message` with `response` itself, on the connection taken from libsoup, then
    /// closes it (``RefusedConnection``): nothing more of the request is read into memory.
    func refuse(_ message: OpaquePointer, with response: HTTPResponse) {
        forgetPendingRequest(message)
        guard let socket = soup_server_message_get_socket(message) else { return }
        g_object_ref(UnsafeMutableRawPointer(socket))
        guard let stream = soup_server_message_steal_connection(message) else {
            g_object_unref(UnsafeMutableRawPointer(socket))
            return
        }
        let connection = RefusedConnection(socket: socket, stream: stream)
        refused[ObjectIdentifier(connection)] = connection
        connection.start(bytes: RefusedConnection.wire(response), on: loop) { [weak self] in
            self?.refused[ObjectIdentifier(connection)] = nil
        }
    }

    // MARK: Request timeout

    /// Connects the server's request signals and starts the once-a-second check. Server thread,
    /// once, before the first connection.
    func startRequestClock() {
        guard let server else { return }
        let started: @convention(c) (UnsafeMutableRawPointer?, OpaquePointer?, UnsafeMutableRawPointer?) -> Void = { _, message, data in
            guard let message, let data else { return }
            CallbackBox<Owner>.from(data).value.server?.rememberPendingRequest(message)
        }
        let ended: @convention(c) (UnsafeMutableRawPointer?, OpaquePointer?, UnsafeMutableRawPointer?) -> Void = { _, message, data in
            guard let message, let data else { return }
            CallbackBox<Owner>.from(data).value.server?.forgetPendingRequest(message)
        }
        let finished: @convention(c) (UnsafeMutableRawPointer?, OpaquePointer?, UnsafeMutableRawPointer?) -> Void = { _, message, data in
            guard let message, let data, let server = CallbackBox<Owner>.from(data).value.server else { return }
            server.forgetPendingRequest(message)
            // The connection has served a request; if it stays open, libsoup waits for the next
            // one without a new request-started (3.2 emits it on its first byte): timed here.
            // Only after an answer of its own: not after a WebSocket's 101 (the connection is the
            // WebSocket's now) nor a refusal (the connection is taken and closing).
            let status = soup_server_message_get_status(message)
            if status >= 200, let socket = soup_server_message_get_socket(message), g_socket_is_closed(socket) == 0 {
                server.rememberIdleConnection(socket)
            }
        }
        let instance = UnsafeMutableRawPointer(server)
        g_signal_connect_data(instance, "request-started", unsafeBitCast(started, to: GCallback.self),
                              CallbackBox(Owner(self)).retainedPointer, callbackBoxClosureRelease, GConnectFlags(0))
        g_signal_connect_data(instance, "request-finished", unsafeBitCast(finished, to: GCallback.self),
                              CallbackBox(Owner(self)).retainedPointer, callbackBoxClosureRelease, GConnectFlags(0))
        for name in ["request-read", "request-aborted"] {
            g_signal_connect_data(instance, name, unsafeBitCast(ended, to: GCallback.self),
                                  CallbackBox(Owner(self)).retainedPointer, callbackBoxClosureRelease, GConnectFlags(0))
        }
        requestClock = loop.addTimer(every: .seconds(1)) { [weak self] in
            self?.refuseLateRequests()
            return true
        }
    }

    /// A kept-alive connection now waits for its next request (`socket` is referenced while listed).
    private func rememberIdleConnection(_ socket: UnsafeMutablePointer<GSocket>) {
        let key = UInt(bitPattern: Int(bitPattern: UnsafeRawPointer(socket)))
        guard idle[key] == nil else { return }
        g_object_ref(UnsafeMutableRawPointer(socket))
        idle[key] = IdleConnection(socket: socket, since: g_get_monotonic_time())
    }

    /// `socket`'s next request began (or it is gone): no longer idle.
    private func forgetIdleConnection(_ socket: UnsafeMutablePointer<GSocket>?) {
        guard let socket else { return }
        let key = UInt(bitPattern: Int(bitPattern: UnsafeRawPointer(socket)))
        guard let entry = idle.removeValue(forKey: key) else { return }
        g_object_unref(UnsafeMutableRawPointer(entry.socket))
    }

    private func rememberPendingRequest(_ message: OpaquePointer) {
        forgetIdleConnection(soup_server_message_get_socket(message))
        let key = UInt(bitPattern: Int(bitPattern: UnsafeRawPointer(message)))
        guard pending[key] == nil else { return }
        g_object_ref(UnsafeMutableRawPointer(message))
        pending[key] = PendingRequest(message: message, since: g_get_monotonic_time())
    }

    /// Drops `message` from the clock (its request arrived, or it ended). Idempotent.
    func forgetPendingRequest(_ message: OpaquePointer) {
        let key = UInt(bitPattern: Int(bitPattern: UnsafeRawPointer(message)))
        guard let entry = pending.removeValue(forKey: key) else { return }
        g_object_unref(UnsafeMutableRawPointer(entry.message))
    }

    /// Every request not read whole within the limit: 408 and closed. A kept-alive connection
    /// idle as long (no byte of a next request) is shut without an answer, as idle connections
    /// are: an unasked 408 there could be read as the answer to the client's next request.
    private func refuseLateRequests() {
        let deadline = g_get_monotonic_time() - gint64(limits.requestTimeout * 1_000_000)
        let late = pending.values.filter { $0.since <= deadline }.map(\.message)
        for message in late {
            g_object_ref(UnsafeMutableRawPointer(message))
            refuse(message, with: .text("408 the request did not arrive within \(Self.seconds(limits.requestTimeout)) s\n", status: 408))
            g_object_unref(UnsafeMutableRawPointer(message))
        }
        for entry in idle.values where entry.since <= deadline {
            // libsoup's read then ends (EOF) and it closes the connection itself.
            g_socket_shutdown(entry.socket, 1, 1, nil)
            forgetIdleConnection(entry.socket)
        }
    }

    private static func seconds(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value.rounded())) : String(value)
    }

    /// Ends the clock and every refused connection still closing. Server thread, at close.
    func stopGate() {
        requestClock?.destroy()
        requestClock = nil
        for entry in pending.values { g_object_unref(UnsafeMutableRawPointer(entry.message)) }
        pending.removeAll()
        for entry in idle.values { g_object_unref(UnsafeMutableRawPointer(entry.socket)) }
        idle.removeAll()
        for connection in refused.values { connection.finish() }
        refused.removeAll()
    }
}
