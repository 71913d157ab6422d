import CGStreamer
import Glibc

/// A listening Unix stream socket served on a `GMainContext` thread of its own (GIO's `GSocket`
/// with `g_socket_create_source`, non-blocking): many clients at once, bytes in, bytes out, and
/// for each client a bounded outbox — a client that stops reading is disconnected once
/// `outboxLimit` bytes wait for it, so no writer ever blocks and other clients go on.
/// What the bytes mean is the caller's business (gstplay cuts them into lines).
///
/// `package`: the CLI's control socket (`--input-ipc-server`) is its user; embedders do not see it.
///
/// **Threads:** ``init(path:outboxLimit:handler:)``, ``send(_:to:)``, ``disconnect(_:)`` and
/// ``close()`` from any thread (queued onto the server's thread); `handler` runs on the
/// server's thread (`gstplay-socket`), one event at a time, in order per client, and is given
/// the server (to answer through it).
package final class UnixSocketServer: @unchecked Sendable {
    /// What happened on the socket, given to the handler on the server's thread.
    package enum Event: Sendable, Equatable {
        /// A client connected; its id is used for every later event and call.
        case connected(Int)
        /// Bytes from a client, as read (not cut into lines).
        case received(Int, [UInt8])
        /// A client is gone: it hung up (`reason` nil), or it was dropped (`reason` says why).
        case disconnected(Int, reason: String?)
    }

    /// The socket file's path, as given.
    package let path: String
    private let identity: UnixSocketPath.Identity
    private let loop: MainLoopThread
    private let outboxLimit: Int
    /// Handed to the server's thread at `init` (not `Sendable`: what it captures is the server
    /// thread's from then on, like the state below, so a handler's own tables need no lock).
    private let handler: (UnixSocketServer, Event) -> Void

    // Server thread only:
    private var listener: UnsafeMutablePointer<GSocket>?
    private var acceptSource: TimerSource?
    private var connections: [Int: UnixSocketConnection] = [:]
    private var nextID = 1

    /// Binds and listens at `path` (``UnixSocketPath``: mode 0600, its directory made with 0700
    /// when missing, a stale socket replaced, a live one refused) and starts accepting on a new
    /// thread. Throws ``UnixSocketError`` before any thread is started.
    package init(path: String, outboxLimit: Int = 1 << 20, handler: @escaping (UnixSocketServer, Event) -> Void) throws(UnixSocketError) {
        let (socket, identity) = try UnixSocketPath.bindListening(path)
        self.path = path
        self.identity = identity
        self.outboxLimit = outboxLimit
        self.handler = handler
        self.listener = socket
        self.loop = MainLoopThread(name: "gstplay-socket")
        loop.invokeAndWait { [self] in startAccepting(socket) }
    }

    /// Removes the socket file while it is still ours (what a signal's last words call: no
    /// waiting, any thread). ``close()`` does it too.
    package func removeSocketFile() { UnixSocketPath.remove(path, ifStill: identity) }

    /// Queues `bytes` for client `id` (ignored when it is gone). Any thread; never blocks.
    package func send(_ bytes: [UInt8], to id: Int) {
        loop.invoke { [self] in
            guard let connection = connections[id] else { return }
            settle(id, connection, connection.enqueue(bytes, limit: outboxLimit))
        }
    }

    /// Disconnects client `id` (its ``Event/disconnected(_:reason:)`` follows, with `reason`).
    package func disconnect(_ id: Int, reason: String? = nil) {
        loop.invoke { [self] in drop(id, reason: reason) }
    }

    /// Closes every connection (each client's ``Event/disconnected(_:reason:)`` has no reason: it
    /// did nothing wrong) and the listening socket, removes the socket file (if still ours) and
    /// joins the thread. Idempotent, with no flag of its own: the work empties what it closes (a
    /// second run finds nothing), is refused once the loop has quit, and ``MainLoopThread/quitAndJoin()``
    /// lets only its first caller join. Not from the handler.
    package func close() {
        let work = { [self] in
            for id in connections.keys.sorted() { drop(id, reason: nil) }   // the player quits: nothing wrong with the client
            acceptSource?.destroy()
            acceptSource = nil
            if let listener {
                g_socket_close(listener, nil)
                g_object_unref(listener)
                self.listener = nil
            }
        }
        if loop.isOnLoopThread { work() } else { loop.invokeAndWait(work) }
        removeSocketFile()
        loop.quitAndJoin()
    }

    /// Without ``close()`` only the socket file is removed (GLib work from `deinit` could outlive
    /// the object); always close a server.
    deinit { removeSocketFile() }

    // MARK: Server thread

    /// A weak way back from a GLib callback (sources may outlive a dropped server briefly).
    private final class Owner: Sendable {
        weak let server: UnixSocketServer?
        let id: Int
        init(_ server: UnixSocketServer, id: Int = 0) { self.server = server; self.id = id }
    }

    private func startAccepting(_ socket: UnsafeMutablePointer<GSocket>) {
        let box = CallbackBox(Owner(self))
        let source = CGStreamer_socket_source_attach(socket, G_IO_IN, loop.context, { _, _, data in
            CallbackBox<Owner>.from(data!).value.server?.acceptAll()
            return 1
        }, box.retainedPointer, callbackBoxRelease)!
        acceptSource = TimerSource(source: source)
    }

    /// Accepts every pending connection (`g_socket_accept` until it would block).
    private func acceptAll() {
        guard let listener else { return }
        while true {
            var error: UnsafeMutablePointer<GError>?
            guard let socket = g_socket_accept(listener, nil, &error) else {
                if let error { g_error_free(error) }
                return
            }
            g_socket_set_blocking(socket, 0)
            let id = nextID
            nextID += 1
            let connection = UnixSocketConnection(socket: socket)
            connections[id] = connection
            let box = CallbackBox(Owner(self, id: id))
            let condition = GIOCondition(rawValue: G_IO_IN.rawValue | G_IO_HUP.rawValue | G_IO_ERR.rawValue)
            let source = CGStreamer_socket_source_attach(socket, condition, loop.context, { _, _, data in
                let owner = CallbackBox<Owner>.from(data!).value
                owner.server?.readable(owner.id)
                return 1
            }, box.retainedPointer, callbackBoxRelease)!
            connection.readSource = TimerSource(source: source)
            handler(self, .connected(id))
        }
    }

    private func readable(_ id: Int) {
        guard let connection = connections[id] else { return }
        switch connection.receive() {
        case .bytes(let bytes): handler(self, .received(id, bytes))
        case .wouldBlock: break
        case .ended: drop(id, reason: nil)
        case .failed(let reason): drop(id, reason: reason)
        }
    }

    /// Makes client `id`'s outbox drain as the socket allows: a write source while bytes wait.
    private func watchWritable(_ id: Int, _ connection: UnixSocketConnection) {
        guard connection.writeSource == nil else { return }
        let box = CallbackBox(Owner(self, id: id))
        let source = CGStreamer_socket_source_attach(connection.socket, G_IO_OUT, loop.context, { _, _, data in
            let owner = CallbackBox<Owner>.from(data!).value
            owner.server?.writable(owner.id)
            return 1
        }, box.retainedPointer, callbackBoxRelease)!
        connection.writeSource = TimerSource(source: source)
    }

    private func writable(_ id: Int) {
        guard let connection = connections[id] else { return }
        settle(id, connection, connection.flush())
    }

    /// After a write: stop watching when the outbox is empty, watch while bytes wait, drop the
    /// client when it hung up (silently), failed or would hold too much.
    private func settle(_ id: Int, _ connection: UnixSocketConnection, _ result: UnixSocketConnection.Flushed) {
        switch result {
        case .done:
            connection.writeSource?.destroy()
            connection.writeSource = nil
        case .pending: watchWritable(id, connection)
        case .hungUp: drop(id, reason: nil)
        case .failed(let reason): drop(id, reason: reason)
        }
    }

    private func drop(_ id: Int, reason: String?) {
        guard let connection = connections.removeValue(forKey: id) else { return }
        connection.close()
        handler(self, .disconnected(id, reason: reason))
    }
}

/// One accepted client of a ``UnixSocketServer``: its non-blocking `GSocket`, its sources and its
/// outbox (bytes not yet written, bounded by the server). Server thread only.
final class UnixSocketConnection {
    /// What one read gave.
    enum Received { case bytes([UInt8]), wouldBlock, ended, failed(String) }

    let socket: UnsafeMutablePointer<GSocket>
    var readSource: TimerSource?
    var writeSource: TimerSource?
    private var outbox: [UInt8] = []
    private var written = 0

    init(socket: UnsafeMutablePointer<GSocket>) { self.socket = socket }

    /// One `g_socket_receive` of up to 64 KiB.
    func receive() -> Received {
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        var error: UnsafeMutablePointer<GError>?
        let count = buffer.withUnsafeMutableBytes { raw in
            g_socket_receive(socket, raw.baseAddress!.assumingMemoryBound(to: gchar.self), gsize(raw.count), nil, &error)
        }
        if count > 0 { return .bytes(Array(buffer[0..<count])) }
        if count == 0 { return .ended }
        if g_error_matches(error, g_io_error_quark(), Int32(G_IO_ERROR_WOULD_BLOCK.rawValue)) != 0 {
            g_error_free(error)
            return .wouldBlock
        }
        if Self.isHangUp(error) {
            g_error_free(error)
            return .ended
        }
        return .failed(UnixSocketPath.take(error))
    }

    /// Whether `error` says the peer went away (`ECONNRESET`, `EPIPE`: GIO's
    /// `G_IO_ERROR_CONNECTION_CLOSED`, the same code as `G_IO_ERROR_BROKEN_PIPE`): a client that
    /// closed its end with a reply still unread, or while one was being written. That is a normal
    /// hang-up, not a failure to report.
    static func isHangUp(_ error: UnsafeMutablePointer<GError>?) -> Bool {
        g_error_matches(error, g_io_error_quark(), Int32(G_IO_ERROR_CONNECTION_CLOSED.rawValue)) != 0
    }

    /// What a write left: nothing waiting, bytes waiting, the client hung up, or a reason to drop it.
    enum Flushed: Equatable { case done, pending, hungUp, failed(String) }

    /// Adds `bytes` to the outbox and writes what the socket takes now; fails when more than
    /// `limit` bytes would wait (the client does not read) or writing failed.
    func enqueue(_ bytes: [UInt8], limit: Int) -> Flushed {
        let waiting = outbox.count - written + bytes.count
        guard waiting <= limit else { return .failed("it did not read (\(waiting) bytes would wait, the limit is \(limit))") }
        outbox.append(contentsOf: bytes)
        return flush()
    }

    /// Writes as much of the outbox as the socket takes (`g_socket_send`, which passes
    /// `MSG_NOSIGNAL`).
    func flush() -> Flushed {
        while written < outbox.count {
            var error: UnsafeMutablePointer<GError>?
            let count = outbox.withUnsafeBytes { raw in
                g_socket_send(socket, raw.baseAddress!.advanced(by: written).assumingMemoryBound(to: gchar.self),
                              gsize(raw.count - written), nil, &error)
            }
            if count > 0 { written += count; continue }
            if g_error_matches(error, g_io_error_quark(), Int32(G_IO_ERROR_WOULD_BLOCK.rawValue)) != 0 {
                g_error_free(error)
                if written > 64 * 1024 { outbox.removeFirst(written); written = 0 }
                return .pending
            }
            if Self.isHangUp(error) {
                g_error_free(error)
                return .hungUp
            }
            return .failed("writing failed: \(UnixSocketPath.take(error))")
        }
        outbox.removeAll(keepingCapacity: true)
        written = 0
        return .done
    }

    /// Destroys the sources and closes the socket (`g_socket_close`, `g_object_unref`).
    func close() {
        readSource?.destroy()
        writeSource?.destroy()
        readSource = nil
        writeSource = nil
        g_socket_close(socket, nil)
        g_object_unref(socket)
    }
}
