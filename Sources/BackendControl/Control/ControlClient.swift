/// Who sent a command, and so where its reply goes: the console (stdin → stdout) or one client
/// of a transport (a control-socket connection; a web remote's WebSocket would be another).
/// A plain value; any thread.
public struct ControlClientID: Hashable, Sendable, CustomStringConvertible {
    /// 0 for the console; 1, 2, … for the clients, in order of arrival.
    public let rawValue: Int

    /// The client numbered `rawValue`.
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// stdin and stdout: replies go to `Output`, events to stdout as ever.
    public static let console = ControlClientID(rawValue: 0)

    /// `ipc-N`, the name mpv's `client_name` answers (the console is `console`).
    public var description: String { rawValue == 0 ? "console" : "ipc-\(rawValue)" }
}

/// Which requests a client may send: gstplay's JSON protocol (docs/PROTOCOL.md), plus — for
/// clients that connect as mpv's would — the subset of mpv's JSON IPC (Control/Mpv*.swift).
public enum ControlDialect: Sendable, Equatable {
    case gstplay
    case gstplayAndMpv
}

/// A transport's half of one client: how lines reach it. Implemented by each transport
/// (``ControlSocket``'s connections); the hub never knows what carries the lines.
public protocol ControlConnection: Sendable {
    /// Queues one line (without its newline) for the client. Must not block: a transport that
    /// cannot keep up drops the client (and reports it through ``ControlHub/disconnected(_:reason:)``).
    func deliver(_ line: String)
    /// Ends the connection (its transport then reports ``ControlHub/disconnected(_:reason:)``).
    func disconnect()
}

/// Where a ``ControlHub`` hands what its clients send, in arrival order: the one consumer that
/// runs their requests (the CLI: its actor's inbox). Must not block.
///
/// **Thread:** called from any thread (a transport's: the control socket's thread).
public protocol ControlInbox: Sendable {
    /// A request line from client `id`, to be dispatched; its reply goes back through
    /// ``ControlHub/send(_:to:)`` and ``ControlHub/finished(_:)`` follows.
    func request(_ line: String, from id: ControlClientID)
    /// Client `id` sent a line longer than `limit` bytes (discarded): it should get an error reply.
    func requestTooLong(limit: Int, from id: ControlClientID)
    /// Client `id` disconnected (what was kept for it can be forgotten).
    func clientLeft(_ id: ControlClientID)
}
