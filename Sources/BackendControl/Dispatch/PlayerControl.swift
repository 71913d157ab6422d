import Backend

/// The dispatcher of gstplay's command language: runs console commands, JSON requests and mpv
/// IPC requests against one `Player` (and its queue, tracks, chapters, cast and adaptive
/// features through their `Player` extensions), and writes each reply as the Codable wire types
/// (``Reply``, ``WireMpv/Reply``) to the client that asked: `--json` stdin (``ControlClientID/console``)
/// through the `console` writer, every other client through the ``ControlHub``.
///
/// Two ways in:
/// - **Embedding:** `let control = PlayerControl(player: player)`, then
///   `try control.serveSocket(path: "/tmp/x.sock")`: the mpv/JSON Unix socket is served, its
///   requests are dispatched and the player's events are sent to its clients by tasks of the
///   control's own (``serveSocket(path:)``). A ``PlayerControlHost`` decides what `quit` does.
/// - **Driven by a host loop** (the `gstplay` CLI): ``init(player:hub:names:configuration:console:)``
///   with the host's own ``ControlHub``; the host hands each request (``dispatch(_:from:)``),
///   player event (``report(_:)``) and departed client (``clientLeft(_:)``) in, in its own order.
///
/// **Thread:** an actor: every command runs on its executor, one at a time, each awaited to its
/// reply (a seek to its landing) before the next is taken. Player calls are queued to the
/// player's loop thread; a setter's value is in `Player/snapshot` as soon as it returns.
public actor PlayerControl {
    /// What the dispatcher allows and where files go. A plain value; any thread.
    public struct Configuration: Sendable {
        /// Where control clients may write files (``FileWriteRule``; by default nowhere).
        public var fileWriteRule: FileWriteRule
        /// How `snapshot` without a path names its file.
        public var screenshot: ScreenshotNaming
        /// The track choices to apply (``PlayerControl/startTracks()``, then per item); nil: none,
        /// and a `track` command before the tracks are known is refused rather than kept.
        public var tracks: TrackChoices?
        /// Resume (mpv's watch-later) with its store: items start where they were left, with the
        /// choices they were played with (``PlayerControl/resumed(_:)``); nil: off.
        public var resume: ResumeOptions?
        /// The key bindings `help` and `keys` list (the host's keys run them); nil: no keys.
        public var bindings: InputBindings?
        /// Where the session's problem lines go (`error: …`, `warning: …`; the CLI: stderr). Any thread.
        public var notes: @Sendable (String) -> Void
        /// Whether the console writer of ``PlayerControl/init(player:hub:names:configuration:console:)``
        /// gets every event's JSON line too, as replies do (the CLI's `--json` stdout). A served
        /// console (``PlayerControl/serveConsole(input:output:)``) always gets them.
        public var consoleEvents = false

        /// Control clients write no files; snapshots get gstplay's default names; no track session,
        /// no resume, no keys; the host's console writer gets replies only.
        public init(fileWriteRule: FileWriteRule = FileWriteRule(), screenshot: ScreenshotNaming = ScreenshotNaming(),
                    tracks: TrackChoices? = nil, resume: ResumeOptions? = nil, bindings: InputBindings? = nil,
                    notes: @escaping @Sendable (String) -> Void = { _ in }, consoleEvents: Bool = false) {
            self.consoleEvents = consoleEvents
            self.fileWriteRule = fileWriteRule
            self.screenshot = screenshot
            self.tracks = tracks
            self.resume = resume
            self.bindings = bindings
            self.notes = notes
        }
    }

    /// The player the commands run against.
    public nonisolated let player: Player
    /// The clients' hub: replies to each, events to all (nil: only the console).
    public nonisolated let hub: ControlHub?
    /// URI → the location as it was typed (shown in `status`, `playlist`, mpv's `filename`).
    public internal(set) var names: LocationNames
    let configuration: Configuration
    /// Where a reply to ``ControlClientID/console`` goes (the CLI: stdout); nil for a control with
    /// a hub of its own, whose console is ``consoleOutput``.
    let console: (@Sendable (String) -> Void)?
    /// What the host decides (`quit`).
    weak var host: (any PlayerControlHost)?
    /// With ``Configuration/tracks``: applies the track choices and keeps early `track` commands.
    let tracks: TrackSession?
    /// With ``Configuration/resume``: the save made on the way out, at most once (``saveResumeAtExit()``);
    /// a host's signal path saves through it too (``ResumeExitSave/saveFromSnapshot(of:patience:)``).
    public nonisolated let resumeAtExit: ResumeExitSave?
    /// With ``Configuration/resume``: what was said about the state file (each warning once).
    var resumeNotes = ResumeNotes()
    /// True once ``shutdown()`` ran: events of the shutdown drain change no session state.
    var isShutDown = false
    /// The mpv clients' state: what events tell, each client's observers.
    var mpv = MpvState()
    /// A `quit` asked for without a host: its exit code, once its reply is sent (``untilQuit()``).
    var quitCode: Int32?
    private var quitReplied = false
    private var quitWaiters: [CheckedContinuation<Int32, Never>] = []
    /// The player's events as JSON lines for the clients and the console (with the buffering `message` lines).
    var wireLines = WireEventLines()
    /// With ``init(player:configuration:log:)``: the hub's requests, served by ``serveSocket(path:)``'s tasks.
    nonisolated let requests: RequestQueue?
    /// With ``init(player:configuration:log:)``: the descriptor ``serveConsole(input:output:)``
    /// writes to (nil: no console served).
    var consoleOutput: Int32?

    /// A dispatcher driven by its caller: `hub` (nil: no clients) is the caller's, whose
    /// ``ControlInbox`` hands the requests to the caller, which passes each to
    /// ``dispatch(_:from:)``; `console` gets the replies to ``ControlClientID/console``.
    public init(player: Player, hub: ControlHub?, names: LocationNames = LocationNames(),
                configuration: Configuration = Configuration(), console: @escaping @Sendable (String) -> Void = { _ in }) {
        self.init(player: player, hub: hub, names: names, configuration: configuration, console: console, requests: nil)
    }

    /// A dispatcher with a hub of its own, for ``serveSocket(path:)``. `log` gets one line per
    /// dropped client.
    public init(player: Player, configuration: Configuration = Configuration(), log: @escaping @Sendable (String) -> Void = { _ in }) {
        let requests = RequestQueue()
        self.init(player: player, hub: ControlHub(inbox: requests, log: log), names: LocationNames(),
                  configuration: configuration, console: nil, requests: requests)
    }

    private init(player: Player, hub: ControlHub?, names: LocationNames, configuration: Configuration,
                 console: (@Sendable (String) -> Void)?, requests: RequestQueue?) {
        self.player = player
        self.hub = hub
        self.names = names
        self.configuration = configuration
        self.tracks = configuration.tracks.map(TrackSession.init(choices:))
        self.resumeAtExit = configuration.resume.map { ResumeExitSave(store: $0.store, saving: $0.saving) }
        self.console = console
        self.requests = requests
        // A hub of its own: the tasks that dispatch its requests and forward the player's events
        // run from the start (no client and no console yet: nothing is written).
        if let requests {
            let records = player.records
            Task { await self.serve(requests) }
            Task { await self.forward(records) }
        }
    }

    /// Which item `record`'s event belongs to, named as typed (`PlayerEventRecord/item(names:)`).
    public func item(of record: PlayerEventRecord) -> EventItem? { record.item(names: names) }

    /// The location to show for `uri`: as the user typed it, else the URI.
    public func location(of uri: String) -> String { names.name(of: uri) }

    /// Sets the host (kept weakly: the host owns the control, not the other way round).
    public func setHost(_ host: (any PlayerControlHost)?) {
        self.host = host
    }

    /// Waits until every player command issued so far ran on the loop thread (one
    /// `Player/currentQueue()` round trip), so `Player/snapshot` shows their effect.
    public func commandsRan() async {
        _ = await player.currentQueue()
    }

    /// Serves the mpv/JSON protocol on a Unix socket at `path` (mode 0600; a stale file is
    /// replaced, a live one refused): each client gets `hello`, the player's events as JSON lines
    /// and mpv events, and a reply to each request, from the control's tasks (made with it: they
    /// dispatch the requests and forward the events until the player shuts down). Only for a
    /// control made with ``init(player:configuration:log:)``: with a caller's hub the caller dispatches.
    /// Throws ``ControlSocketError``. Any thread; close the returned socket to stop serving it.
    @discardableResult
    public nonisolated func serveSocket(path: String) throws(ControlSocketError) -> ControlSocket {
        guard let hub else { throw ControlSocketError(message: "this control has no hub (made with init(player:hub:) and nil)") }
        return try ControlSocket(path: path, hub: hub)
    }

    private func serve(_ requests: RequestQueue) async {
        for await item in requests.stream {
            switch item {
            case .request(let client, let line):
                await dispatch(line, from: client)
                hub?.finished(client)
            case .tooLong(let client, let limit): lineTooLong(limit: limit, from: client)
            case .left(let client): clientLeft(client)
            }
        }
    }

    /// Reports each player event (``report(_:)``: its JSON lines to every client and the
    /// console, then mpv's events); once the player shut down, mpv's `shutdown` and the end of the
    /// request task.
    private func forward(_ records: AsyncStream<PlayerEventRecord>) async {
        for await record in records { report(record) }
        shutdown()
        requests?.finish()      // the player is gone: the request task ends too
    }

    /// Returns once a client asked to `quit` (JSON `quit`, mpv's `quit [code]`) and its reply
    /// was sent, with the code asked for (0 when none): what an embedding app waits on to end.
    /// Only without a host; with one, ``PlayerControlHost/quit(code:)`` is called instead.
    public func untilQuit() async -> Int32 {
        if quitReplied, let quitCode { return quitCode }
        return await withCheckedContinuation { quitWaiters.append($0) }
    }

    /// `quit`: the host's to decide; without one, recorded for ``untilQuit()``.
    func requestQuit(code: Int32?) async {
        if let host { return await host.quit(code: code) }
        if quitCode == nil { quitCode = code ?? 0 }
    }

    /// After a reply: a recorded `quit` resumes everyone waiting in ``untilQuit()``.
    func releaseQuitWaiters() {
        guard let quitCode else { return }
        quitReplied = true
        for waiter in quitWaiters { waiter.resume(returning: quitCode) }
        quitWaiters.removeAll()
    }

    /// A line longer than `limit` bytes from `client` (discarded): an error reply with a null id.
    public func lineTooLong(limit: Int, from client: ControlClientID) {
        reply(Reply(id: .null, error: "line too long (more than \(limit) bytes); ignored").line, to: client)
    }

    /// Client `client` left: its mpv observers and event switches are forgotten.
    public func clientLeft(_ client: ControlClientID) {
        mpv.sessions[client] = nil
    }
}

/// What the host of a ``PlayerControl`` decides: what `quit` does (the CLI: its exit status).
///
/// **Thread:** called from the ``PlayerControl`` actor, awaited.
public protocol PlayerControlHost: AnyObject, Sendable {
    /// `quit` (JSON, console) or mpv's `quit [code]`: `code` nil asks for the host's normal status.
    func quit(code: Int32?) async
}

/// URI → the location as the user typed it (a path stays a path in `status` and `playlist`).
/// A plain value: the ``PlayerControl`` actor owns the one table.
public struct LocationNames: Sendable {
    private var table: [String: String]

    /// A table with `names` in it.
    public init(_ names: [String: String] = [:]) {
        table = names
    }

    /// The typed location of `uri` (nil: none known); setting records one.
    public subscript(uri: String) -> String? {
        get { table[uri] }
        set { table[uri] = newValue }
    }

    /// The typed location of `uri`, else the URI itself.
    public func name(of uri: String) -> String { self[uri] ?? uri }

    /// Every entry now.
    public var all: [String: String] { table }
}

/// The hub's requests for a ``PlayerControl`` with a hub of its own, in arrival order.
/// **Thread:** any (the socket thread yields, the control's task consumes).
final class RequestQueue: ControlInbox {
    enum Item: Sendable {
        case request(ControlClientID, String)
        case tooLong(ControlClientID, Int)
        case left(ControlClientID)
    }

    let stream: AsyncStream<Item>
    private let continuation: AsyncStream<Item>.Continuation

    init() {
        (stream, continuation) = AsyncStream<Item>.makeStream(bufferingPolicy: .unbounded)
    }

    func request(_ line: String, from id: ControlClientID) { continuation.yield(.request(id, line)) }
    func requestTooLong(limit: Int, from id: ControlClientID) { continuation.yield(.tooLong(id, limit)) }
    func clientLeft(_ id: ControlClientID) { continuation.yield(.left(id)) }
    /// No more requests: the stream ends once the queued ones are taken.
    func finish() { continuation.finish() }
}
