import BackendCore
import CGStreamer
import CSoup
import GLibSupport

/// A follower's control connection: a WebSocket client (libsoup 3,
/// `soup_session_websocket_connect_async`) to the leader's `/sync/events`, on a GLib thread of
/// its own (`gstplay-sync`). Every text message that is a ``SyncSession`` goes to `onSession`;
/// `onConnection` hears when the connection opens (true) or is lost (false, with the reason).
/// A lost or refused connection is tried again every `retry` until ``close()``.
///
/// **Thread:** `init`/``start()``/``close()`` any thread; the callbacks run on the client's thread.
final class SyncControlClient: @unchecked Sendable {
    private let endpoint: SyncEndpoint
    private let retry: Duration
    private let onSession: @Sendable (SyncSession) -> Void
    private let onConnection: @Sendable (Bool, String) -> Void
    private let loop = MainLoopThread(name: "gstplay-sync")
    // Client thread only:
    private var session: UnsafeMutablePointer<SoupSession>?
    private var connection: OpaquePointer?          // SoupWebsocketConnection, referenced
    private var handlers: [gulong] = []
    private var cancellable: UnsafeMutablePointer<GCancellable>?
    private var retryTimer: TimerSource?
    private var closed = false
    private var lastFailure: String?

    init(endpoint: SyncEndpoint, retry: Duration, onSession: @escaping @Sendable (SyncSession) -> Void,
         onConnection: @escaping @Sendable (Bool, String) -> Void) {
        self.endpoint = endpoint
        self.retry = retry
        self.onSession = onSession
        self.onConnection = onConnection
    }

    /// Connects (in the background).
    func start() { loop.invoke { [self] in connect() } }

    /// The URL of the leader's events (`http://HOST:PORT/sync/events`; libsoup upgrades it).
    var eventsURL: String { "http://\(endpoint)/sync/events" }

    private func connect() {
        guard !closed, connection == nil else { return }
        if session == nil { session = soup_session_new() }
        guard let session, let message = soup_message_new("GET", eventsURL) else {
            return failed("the leader's address \(endpoint) is not usable")
        }
        cancellable = g_cancellable_new()
        soup_session_websocket_connect_async(session, message, nil, nil, Int32(G_PRIORITY_DEFAULT), cancellable, { source, result, data in
            guard let data else { return }
            let box = Unmanaged<SyncControlClient>.fromOpaque(data)
            box.takeRetainedValue().connected(source: source, result: result)
        }, Unmanaged.passRetained(self).toOpaque())
        g_object_unref(UnsafeMutableRawPointer(message))
    }

    private func connected(source: UnsafeMutablePointer<GObject>?, result: OpaquePointer?) {
        if let cancellable { g_object_unref(UnsafeMutableRawPointer(cancellable)) }
        cancellable = nil
        var error: UnsafeMutablePointer<GError>?
        guard let source, let opened = soup_session_websocket_connect_finish(UnsafeMutableRawPointer(source).assumingMemoryBound(to: SoupSession.self), result, &error) else {
            let text = error.map { String(cString: $0.pointee.message) } ?? "no connection"
            if let error { g_error_free(error) }
            return failed("cannot reach the leader at \(endpoint): \(text)")
        }
        guard !closed else {
            soup_websocket_connection_close(opened, 1000, nil)
            g_object_unref(UnsafeMutableRawPointer(opened))
            return
        }
        connection = opened
        lastFailure = nil
        let onMessage: @convention(c) (OpaquePointer?, Int32, OpaquePointer?, UnsafeMutableRawPointer?) -> Void = { _, type, bytes, data in
            guard let bytes, let data, type == Int32(SOUP_WEBSOCKET_DATA_TEXT.rawValue) else { return }
            var size: gsize = 0
            let text = g_bytes_get_data(bytes, &size).map {
                String(decoding: UnsafeRawBufferPointer(start: $0, count: Int(size)), as: UTF8.self)
            } ?? ""
            CallbackBox<SyncControlClient>.from(data).value.received(text)
        }
        let onClosed: @convention(c) (OpaquePointer?, UnsafeMutableRawPointer?) -> Void = { _, data in
            guard let data else { return }
            CallbackBox<SyncControlClient>.from(data).value.lost()
        }
        let instance = UnsafeMutableRawPointer(opened)
        handlers = [
            g_signal_connect_data(instance, "message", unsafeBitCast(onMessage, to: GCallback.self),
                                  CallbackBox(self).retainedPointer, { data, _ in callbackBoxRelease(data) }, GConnectFlags(0)),
            g_signal_connect_data(instance, "closed", unsafeBitCast(onClosed, to: GCallback.self),
                                  CallbackBox(self).retainedPointer, { data, _ in callbackBoxRelease(data) }, GConnectFlags(0)),
        ]
        onConnection(true, "connected to \(endpoint)")
    }

    private func received(_ text: String) {
        guard let session = SyncSession.decode(text) else { return }
        onSession(session)
    }

    /// The connection closed (the leader went away): forget it, say so, try again later.
    private func lost() {
        releaseConnection()
        failed("the leader's control connection (\(endpoint)) closed")
    }

    private func releaseConnection() {
        guard let connection else { return }
        for handler in handlers { g_signal_handler_disconnect(UnsafeMutableRawPointer(connection), handler) }
        handlers = []
        if soup_websocket_connection_get_state(connection) == SOUP_WEBSOCKET_STATE_OPEN {
            soup_websocket_connection_close(connection, 1000, nil)
        }
        g_object_unref(UnsafeMutableRawPointer(connection))
        self.connection = nil
    }

    /// Reports `reason` (once while it stays the same) and tries again after ``retry``.
    private func failed(_ reason: String) {
        guard !closed else { return }
        if reason != lastFailure { onConnection(false, reason) }
        lastFailure = reason
        retryTimer?.destroy()
        retryTimer = loop.addTimer(every: retry) { [self] in
            retryTimer = nil
            connect()
            return false
        }
    }

    /// Closes the connection and stops trying; joins the thread. Idempotent.
    func close() {
        loop.invokeAndWait { [self] in
            guard !closed else { return }
            closed = true
            retryTimer?.destroy()
            retryTimer = nil
            if let cancellable { g_cancellable_cancel(cancellable) }
            releaseConnection()
        }
        // A connect still in flight completes (cancelled) on the loop before it quits.
        loop.invokeAndWait { [self] in
            if let session { g_object_unref(UnsafeMutableRawPointer(session)) }
            session = nil
        }
        loop.quitAndJoin()
    }
}
