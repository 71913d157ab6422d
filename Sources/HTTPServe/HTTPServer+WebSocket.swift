import CSoup
import GLibSupport

/// What happens to the WebSocket clients of an ``HTTPServer``, given to the handler on the
/// server's thread, in order per client.
public enum WebSocketEvent: Sendable, Equatable {
    /// A client finished its handshake; its id is used for every later event and call.
    case connected(Int)
    /// A text message from a client.
    case received(Int, String)
    /// A client is gone: it closed (`reason` nil) or was dropped (`reason` says why).
    case closed(Int, reason: String?)
}

/// The limits of a WebSocket endpoint.
public struct WebSocketLimits: Sendable {
    /// At most this many clients at once; one more gets 503 on its upgrade.
    public var maxClients = 32
    /// A message longer than this closes its client with close code 1009: a frame over it
    /// (libsoup's `max-incoming-payload-size`, ``WebSocketRefusal``), or a fragmented message
    /// whose parts add up to more (checked when it is complete: libsoup 3.2 has no limit on the
    /// whole message; a later libsoup's `max-total-message-size` is set when it has one).
    public var maxMessage = 64 * 1024
    /// A client with more than this many bytes not yet delivered (it does not read) is dropped.
    public var maxBacklog = 256 * 1024
    /// The defaults: 32 clients, 64 KiB a message, 256 KiB of backlog.
    public init() {}
}

/// The server's WebSocket clients. Server thread only.
struct WebSocketTable {
    struct Client {
        let connection: OpaquePointer     // SoupWebsocketConnection, referenced
        let socket: UnsafeMutablePointer<GSocket>?   // referenced, for TCP_INFO
        var backlog: SendBacklog
        var handlers: [gulong]
    }
    var clients: [Int: Client] = [:]
    /// Why libsoup is closing a client (its `error` signal), until its `closed`.
    var errors: [Int: String] = [:]
    var nextID = 1
    var limits = WebSocketLimits()
    var handler: ((HTTPServer, WebSocketEvent) -> Void)?
}

extension HTTPServer {
    /// Accepts WebSocket upgrades at `path` (`soup_server_add_websocket_handler`). Before the
    /// handshake the route's gate refuses: no token → 401; a `Host` or `Origin` that is not this
    /// server's own (``OriginPolicy``) → 403 (cross-site WebSocket hijacking, DNS rebinding); and
    /// a normal handler on the same path: ``WebSocketLimits/maxClients`` reached → 503. Clients
    /// without `Origin` (not a browser) are judged by `Host` alone. One endpoint per server.
    /// `requiresToken` false: no token is asked (an endpoint that only publishes, such as the
    /// sync leader's session). `handler` is handed to the server's thread and runs only there
    /// (so it need not be `Sendable`: what it captures belongs to that thread from now on).
    public func acceptWebSockets(at path: String, limits: WebSocketLimits = WebSocketLimits(), requiresToken: Bool = true,
                                 handler: @escaping (HTTPServer, WebSocketEvent) -> Void) {
        loop.invokeAndWait { [self] in
            sockets.limits = limits
            sockets.handler = handler
        }
        route(path, requiresToken: requiresToken) { [self] _, responder in
            // Server thread (routes run there): decide now, leave the status unset to accept.
            // The token and the origin were checked by the gate (HTTPServer+Gate.swift).
            if sockets.clients.count >= sockets.limits.maxClients {
                return responder.respond(.text("503 too many clients\n", status: 503))
            }
            responder.respondRaw { _ in }       // no status set: libsoup goes on with the handshake
        }
        loop.invokeAndWait { [self] in
            guard let server else { return }
            soup_server_add_websocket_handler(server, path, nil, nil, { _, message, _, connection, data in
                guard let message, let connection, let data else { return }
                CallbackBox<Owner>.from(data).value.server?.accept(connection, message: message)
            }, CallbackBox(Owner(self)).retainedPointer, callbackBoxRelease)
        }
    }

    /// Sends `text` to client `id` (ignored when it is gone); a client whose backlog passes
    /// the limit is dropped instead. Any thread; never blocks.
    public func send(_ text: String, to id: Int) {
        onServerThread { [self] in
            guard var client = sockets.clients[id] else { return }
            client.backlog.add(payload: text.utf8.count)
            sockets.clients[id] = client
            let pending = client.backlog.pending
            if pending > UInt64(sockets.limits.maxBacklog) {
                return drop(id, reason: "it did not read (\(pending) bytes not delivered, the limit is \(sockets.limits.maxBacklog))")
            }
            soup_websocket_connection_send_text(client.connection, text)
        }
    }

    /// Closes client `id` (code 1000; its ``WebSocketEvent/closed(_:reason:)`` follows).
    public func disconnect(_ id: Int, reason: String? = nil) {
        onServerThread { [self] in drop(id, reason: reason) }
    }

    /// How many WebSocket clients are connected now.
    public var webSocketCount: Int {
        var count = 0
        if loop.isOnLoopThread { return sockets.clients.count }
        loop.invokeAndWait { [self] in count = sockets.clients.count }
        return count
    }

    /// A weak way back from libsoup's callbacks.
    final class Owner: Sendable {
        weak let server: HTTPServer?
        let id: Int
        init(_ server: HTTPServer, id: Int = 0) { self.server = server; self.id = id }
    }

    private func accept(_ connection: OpaquePointer, message: OpaquePointer) {
        g_object_ref(UnsafeMutableRawPointer(connection))
        soup_websocket_connection_set_max_incoming_payload_size(connection, guint64(sockets.limits.maxMessage))
        Self.limitWholeMessages(connection, to: sockets.limits.maxMessage)
        let socket = soup_server_message_get_socket(message)
        if let socket { g_object_ref(socket) }
        let id = sockets.nextID
        sockets.nextID += 1
        let onMessage: @convention(c) (OpaquePointer?, Int32, OpaquePointer?, UnsafeMutableRawPointer?) -> Void = { _, type, bytes, data in
            guard let bytes, let data, type == Int32(SOUP_WEBSOCKET_DATA_TEXT.rawValue) else { return }
            var size: gsize = 0
            let text = g_bytes_get_data(bytes, &size).map {
                String(decoding: UnsafeRawBufferPointer(start: $0, count: Int(size)), as: UTF8.self)
            } ?? ""
            let owner = CallbackBox<Owner>.from(data).value
            guard Int(size) <= owner.server?.sockets.limits.maxMessage ?? Int.max else {
                // Fragments under the frame limit that add up to more: refused whole, not delivered.
                owner.server?.drop(owner.id, reason: "a message over the size limit (\(size) bytes in fragments)", code: 1009)
                return
            }
            owner.server?.deliver(.received(owner.id, text))
        }
        let onClosed: @convention(c) (OpaquePointer?, UnsafeMutableRawPointer?) -> Void = { _, data in
            guard let data else { return }
            let owner = CallbackBox<Owner>.from(data).value
            owner.server?.forget(owner.id)
        }
        // libsoup reports why it closes a client (a message over the limit: code 1009) here first.
        let onError: @convention(c) (OpaquePointer?, UnsafeMutablePointer<GError>?, UnsafeMutableRawPointer?) -> Void = { _, error, data in
            guard let data, let error else { return }
            let owner = CallbackBox<Owner>.from(data).value
            let message = String(cString: error.pointee.message)
            let tooBig = error.pointee.code == Int32(SOUP_WEBSOCKET_CLOSE_TOO_BIG.rawValue)
            owner.server?.sockets.errors[owner.id] = tooBig ? "a message over the size limit (\(message))" : message
            // libsoup closes the socket now, without a close frame: send 1009 on a duplicate first.
            if tooBig, let server = owner.server, let socket = server.sockets.clients[owner.id]?.socket {
                WebSocketRefusal.start(socketFD: g_socket_get_fd(socket), code: 1009, reason: "message too big", on: server.loop)
            }
        }
        let handlers = [
            g_signal_connect_data(UnsafeMutableRawPointer(connection), "message", unsafeBitCast(onMessage, to: GCallback.self),
                                  CallbackBox(Owner(self, id: id)).retainedPointer, { data, _ in callbackBoxRelease(data) }, GConnectFlags(0)),
            g_signal_connect_data(UnsafeMutableRawPointer(connection), "closed", unsafeBitCast(onClosed, to: GCallback.self),
                                  CallbackBox(Owner(self, id: id)).retainedPointer, { data, _ in callbackBoxRelease(data) }, GConnectFlags(0)),
            g_signal_connect_data(UnsafeMutableRawPointer(connection), "error", unsafeBitCast(onError, to: GCallback.self),
                                  CallbackBox(Owner(self, id: id)).retainedPointer, { data, _ in callbackBoxRelease(data) }, GConnectFlags(0)),
        ]
        let fd = socket.map { g_socket_get_fd($0) } ?? -1
        sockets.clients[id] = WebSocketTable.Client(connection: connection, socket: socket, backlog: SendBacklog(fd: fd), handlers: handlers)
        deliver(.connected(id))
    }

    private func deliver(_ event: WebSocketEvent) { sockets.handler?(self, event) }

    /// Client `id` closed (or libsoup closed it): release it and tell the handler.
    private func forget(_ id: Int) {
        let reason = sockets.errors.removeValue(forKey: id)
        guard let client = sockets.clients.removeValue(forKey: id) else { return }
        release(client)
        deliver(.closed(id, reason: reason))
    }

    /// Closes client `id` ourselves (close code `code`, by default 1000 without a reason and
    /// 1008, policy violation, with one): it is forgotten now (its `closed` signal then finds nothing).
    private func drop(_ id: Int, reason: String?, code: UInt16? = nil) {
        sockets.errors[id] = nil
        guard let client = sockets.clients.removeValue(forKey: id) else { return }
        if soup_websocket_connection_get_state(client.connection) == SOUP_WEBSOCKET_STATE_OPEN {
            soup_websocket_connection_close(client.connection, code ?? (reason == nil ? 1000 : 1008), reason.map { String($0.prefix(120)) })
        }
        release(client)
        deliver(.closed(id, reason: reason))
    }

    private func release(_ client: WebSocketTable.Client) {
        for handler in client.handlers { g_signal_handler_disconnect(UnsafeMutableRawPointer(client.connection), handler) }
        g_object_unref(UnsafeMutableRawPointer(client.connection))
        if let socket = client.socket { g_object_unref(socket) }
    }

    /// Sets libsoup's `max-total-message-size` (the whole of a fragmented message) where the
    /// running libsoup has it (later than 3.2); 3.2 only limits each frame.
    private static func limitWholeMessages(_ connection: OpaquePointer, to limit: Int) {
        let object = UnsafeMutableRawPointer(connection).assumingMemoryBound(to: GObject.self)
        guard g_object_class_find_property(UnsafeMutableRawPointer(object.pointee.g_type_instance.g_class).assumingMemoryBound(to: GObjectClass.self),
                                           "max-total-message-size") != nil else { return }
        var value = GValue()
        g_value_init(&value, GType(11 << 2))   // G_TYPE_UINT64 (G_TYPE_MAKE_FUNDAMENTAL(11)), a macro Swift does not import
        g_value_set_uint64(&value, guint64(limit))
        g_object_set_property(object, "max-total-message-size", &value)
        g_value_unset(&value)
    }

    func closeAllWebSockets() {
        for id in sockets.clients.keys.sorted() { drop(id, reason: "the server is closing") }
    }
}
