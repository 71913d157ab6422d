import Backend
import BackendCore
import GLibSupport
import Synchronization

/// `--input-ipc-server PATH`: the control socket, one transport of the ``ControlHub``. A Unix
/// stream socket (`UnixSocketServer`: GIO on a thread of its own, mode 0600, a stale file
/// replaced, a live one refused, a bounded outbox per client) whose bytes are cut into lines
/// (``LineSplitter``, 64 KiB a line: a longer one gets an error reply and is skipped). Every
/// client speaks gstplay's JSON protocol and the mpv IPC subset (``ControlDialect/gstplayAndMpv``).
///
/// Embedders get one through ``PlayerControl/serveSocket(path:)``, or make one on a hub of
/// their own.
///
/// **Thread:** ``init(path:hub:outboxLimit:)`` and ``close()`` from any thread; the socket's
/// events arrive on the socket thread and go straight to the hub.
public final class ControlSocket: Sendable {
    /// The longest request line (bytes), as on the console.
    public static let maxLineLength = 64 * 1024

    private let server: UnixSocketServer

    /// Listens at `path`; throws ``ControlSocketError`` (in use, not a socket, cannot bind).
    /// `outboxLimit`: bytes that may wait for one client before it is dropped.
    public init(path: String, hub: ControlHub, outboxLimit: Int = 1 << 20) throws(ControlSocketError) {
        let router = Router(hub: hub)
        do {
            server = try UnixSocketServer(path: path, outboxLimit: outboxLimit) { server, event in router.handle(event, server: server) }
        } catch {
            throw ControlSocketError(error)
        }
    }

    /// The path it listens at.
    public var path: String { server.path }

    /// Removes the socket file (if still ours) without waiting: a signal's last words.
    public func removeSocketFile() { server.removeSocketFile() }

    /// Disconnects every client, stops listening and removes the socket file. Idempotent.
    public func close() { server.close() }

    /// One client of the socket, as the hub sees it.
    private struct Connection: ControlConnection {
        let server: UnixSocketServer
        let number: Int
        func deliver(_ line: String) { server.send(Array((line + "\n").utf8), to: number) }
        func disconnect() { server.disconnect(number) }
    }

    /// The socket's events turned into the hub's calls, with a line splitter per connection.
    /// **Thread:** the socket thread only (handed to the server with its handler), so the table
    /// is a plain property.
    private final class Router {
        private struct Entry { let id: ControlClientID; var splitter: LineSplitter }
        private let hub: ControlHub
        private var entries: [Int: Entry] = [:]

        init(hub: ControlHub) { self.hub = hub }

        func handle(_ event: UnixSocketServer.Event, server: UnixSocketServer) {
            switch event {
            case .connected(let number):
                let id = hub.connect(Connection(server: server, number: number), dialect: .gstplayAndMpv)
                entries[number] = Entry(id: id, splitter: LineSplitter(maxLength: ControlSocket.maxLineLength))
            case .received(let number, let bytes):
                guard let id = entries[number]?.id, let items = entries[number]?.splitter.feed(bytes) else { return }
                for item in items {
                    switch item {
                    case .line(let line): hub.received(line, from: id)
                    case .tooLong(let limit): hub.lineTooLong(limit: limit, from: id)
                    }
                }
            case .disconnected(let number, let reason):
                guard let entry = entries.removeValue(forKey: number) else { return }
                hub.disconnected(entry.id, reason: reason)
            }
        }
    }
}

/// Why the control socket could not listen: in use by a running player, a path that exists and
/// is not a socket, or another failure (a missing permission, a path over 107 bytes). A plain
/// value; any thread.
public struct ControlSocketError: Error, Sendable, Equatable, CustomStringConvertible {
    /// One line for the user: the path and what is wrong with it.
    public let message: String
    /// Something accepts connections on the path already (another player).
    public let inUse: Bool

    /// An error with `message`.
    public init(message: String, inUse: Bool = false) {
        self.message = message
        self.inUse = inUse
    }

    init(_ error: UnixSocketError) {
        if case .inUse = error { self.init(message: error.description, inUse: true) } else { self.init(message: error.description) }
    }

    /// ``message``.
    public var description: String { message }
}
