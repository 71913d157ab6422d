import Backend
import Synchronization

/// The seam "one dispatcher, many clients": every transport registers its clients here and hands
/// their lines in; the lines reach the one consumer through its ``ControlInbox`` (a
/// ``PlayerControl`` with a hub of its own; the CLI: its actor's `Inbox`, as `CLIInput.request`),
/// tagged with their client, and go through the same dispatcher as `--json` stdin
/// (``PlayerControl/dispatch(_:from:)``). Each reply goes back to the client that asked
/// (``send(_:to:)``); events go to every client (``broadcast(_:dialect:)``) and to stdout.
///
/// A new transport (a web remote) needs only this: ``connect(_:dialect:)`` when a client
/// arrives, ``received(_:from:)`` per line, ``disconnected(_:reason:)`` when it leaves, and a
/// ``ControlConnection`` that queues lines without blocking.
///
/// **Thread:** any; one `Mutex` guards the client table, the in-flight counts and the next id
/// (lines are delivered under it, so a new client's `hello` comes before any event).
public final class ControlHub: Sendable {
    private struct Client: Sendable {
        let connection: any ControlConnection
        let dialect: ControlDialect
    }

    /// The client table, each client's requests queued in the inbox or running
    /// (``received(_:from:)``) and the next id: one lock.
    private struct State: Sendable {
        var clients: [ControlClientID: Client] = [:]
        var inFlight: [ControlClientID: Int] = [:]
        var nextID = 1
    }

    private let state = Mutex<State>(State())
    /// How many requests one client may have queued or running at once.
    public static let maxInFlight = 64
    private let inbox: any ControlInbox
    private let log: @Sendable (String) -> Void

    /// `log` gets one line per dropped client (the CLI: stderr).
    public init(inbox: any ControlInbox, log: @escaping @Sendable (String) -> Void) {
        self.inbox = inbox
        self.log = log
    }

    /// Registers a client and sends it the protocol's first line (`hello`); from then on it gets
    /// every broadcast. Returns its id.
    public func connect(_ connection: any ControlConnection, dialect: ControlDialect) -> ControlClientID {
        connect(dialect: dialect) { _ in connection }
    }

    /// ``connect(_:dialect:)`` for a connection that needs its id from the start: `make` gets the
    /// id (under the hub's lock: it must not call the hub) and returns the connection.
    public func connect(dialect: ControlDialect, making make: (ControlClientID) -> any ControlConnection) -> ControlClientID {
        state.withLock { state in
            let id = ControlClientID(rawValue: state.nextID)
            state.nextID += 1
            let connection = make(id)
            state.clients[id] = Client(connection: connection, dialect: dialect)
            connection.deliver(WireEvents.hello())
            return id
        }
    }

    /// A request line from client `id`, handed to the inbox, unless the client already has
    /// ``maxInFlight`` requests queued or running: then it is answered at once with an `error`
    /// reply (its `request_id` kept) and not run, so a flooding client cannot fill the inbox and
    /// hold back other clients' requests and the player's events.
    public func received(_ line: String, from id: ControlClientID) {
        let admitted = state.withLock { state -> Bool in
            guard state.inFlight[id, default: 0] < Self.maxInFlight else { return false }
            state.inFlight[id, default: 0] += 1
            return true
        }
        guard admitted else {
            let request = JSONProtocol.parseRequest(line).id
            let requestID = dialect(of: id) == .gstplayAndMpv ? MpvRequest.parse(line)?.id ?? request : request
            // Outside the table's lock: on the socket thread, a full outbox drops the client
            // inline, and that reaches ``disconnected(_:reason:)``, which takes the lock.
            let connection = state.withLock { $0.clients[id]?.connection }
            return connection?.deliver(Reply(id: requestID, error: "too many requests in flight (\(Self.maxInFlight)): wait for their replies").line) ?? ()
        }
        inbox.request(line, from: id)
    }

    /// The consumer is done with one request of client `id` (its reply is sent).
    public func finished(_ id: ControlClientID) {
        state.withLock { state in
            guard let count = state.inFlight[id] else { return }
            state.inFlight[id] = count > 1 ? count - 1 : nil
        }
    }

    /// Client `id` sent a line longer than `limit` bytes (discarded): it gets an error reply.
    public func lineTooLong(limit: Int, from id: ControlClientID) {
        inbox.requestTooLong(limit: limit, from: id)
    }

    /// Client `id` is gone; with a `reason` it was dropped, which is logged.
    public func disconnected(_ id: ControlClientID, reason: String?) {
        let removed = state.withLock { state in
            state.inFlight[id] = nil
            return state.clients.removeValue(forKey: id)
        }
        guard removed != nil else { return }
        if let reason { log("gstplay: control client \(id) dropped: \(reason)") }
        inbox.clientLeft(id)
    }

    /// The dialect client `id` speaks (``ControlDialect/gstplay`` for the console and unknown ids).
    public func dialect(of id: ControlClientID) -> ControlDialect {
        state.withLock { $0.clients[id]?.dialect } ?? .gstplay
    }

    /// One line to client `id` (nothing when it is gone).
    public func send(_ line: String, to id: ControlClientID) {
        state.withLock { $0.clients[id]?.connection.deliver(line) }
    }

    /// One line to every client, or to those speaking `dialect`.
    public func broadcast(_ line: String, dialect: ControlDialect? = nil) {
        state.withLock { state in
            for client in state.clients.values where dialect == nil || client.dialect == dialect {
                client.connection.deliver(line)
            }
        }
    }

    /// Whether client `id` is still connected (requests of a client gone are not run).
    public func isConnected(_ id: ControlClientID) -> Bool { state.withLock { $0.clients[id] != nil } }

    /// Whether any client is connected (events are encoded for clients only then).
    public var hasClients: Bool { state.withLock { !$0.clients.isEmpty } }

    /// The clients now connected that speak `dialect`.
    public func clientIDs(speaking dialect: ControlDialect) -> [ControlClientID] {
        state.withLock { $0.clients.filter { $0.value.dialect == dialect }.map(\.key) }
    }
}
