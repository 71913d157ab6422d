import Backend
import BackendControl

/// Everything the CLI reacts to, in arrival order: player events, console lines, keys,
/// signals. A plain value; made on the producing thread, consumed by ``PlaybackController``.
enum CLIInput: Sendable {
    /// An event from `Player.records`, with the ID of the load it belongs to.
    case event(PlayerEventRecord)
    /// `Player.records` ended (the player shut down).
    case eventsEnded
    /// A console line (text or, with `--json`, a request).
    case line(String)
    /// A console line longer than the limit (given) was discarded.
    case lineTooLong(Int)
    /// A key pressed on the terminal.
    case key(Key)
    /// End of the console input (not an error: playback goes on).
    case inputEnded
    /// SIGINT or SIGTERM: quit with this exit code.
    case signal(Int32)
    /// A request line from a control client (``ControlHub``): dispatched like a `--json` line,
    /// its reply goes to that client.
    case request(ControlClientID, String)
    /// A control client's line was longer than the limit (given) and was discarded.
    case requestTooLong(ControlClientID, Int)
    /// A control client disconnected (its observers are forgotten).
    case clientLeft(ControlClientID)
}

/// The single stream the CLI actor consumes: the stdin reader thread, the signal watcher and the
/// player-event bridge all ``send(_:)`` into it. Unbounded, so no producer ever blocks.
///
/// **Thread:** ``send(_:)`` from any thread; ``stream`` is iterated by the CLI actor only.
struct Inbox: Sendable {
    let stream: AsyncStream<CLIInput>
    private let continuation: AsyncStream<CLIInput>.Continuation

    init() {
        (stream, continuation) = AsyncStream<CLIInput>.makeStream(bufferingPolicy: .unbounded)
    }

    /// Queues `input` for the CLI actor.
    func send(_ input: CLIInput) { continuation.yield(input) }

    /// Forwards every record of `records` (a `Player.records` stream), then
    /// ``CLIInput/eventsEnded``. The bridge task ends with the stream, at player shutdown.
    func forward(_ records: AsyncStream<PlayerEventRecord>) {
        Task { [self] in
            for await record in records { send(.event(record)) }
            send(.eventsEnded)
        }
    }
}

/// The control clients' lines reach the CLI actor through the inbox, in order with everything else.
extension Inbox: ControlInbox {
    func request(_ line: String, from id: ControlClientID) { send(.request(id, line)) }
    func requestTooLong(limit: Int, from id: ControlClientID) { send(.requestTooLong(id, limit)) }
    func clientLeft(_ id: ControlClientID) { send(.clientLeft(id)) }
}
