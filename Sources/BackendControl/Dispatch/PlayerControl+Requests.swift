import Backend

/// The one dispatcher of request lines — `--json` stdin and every control client — and the way
/// back: each reply to the client that asked, events to every client (``ControlHub``).
///
/// **Thread:** the ``PlayerControl`` actor.
extension PlayerControl {
    /// One request line from `client` (``ControlClientID/console``: `--json` stdin). An mpv IPC
    /// request (``MpvRequest``, for clients speaking ``ControlDialect/gstplayAndMpv``) runs as
    /// mpv's and gets mpv's reply; every other line is gstplay's protocol (``JSONProtocol``),
    /// exactly as on stdin. Blank lines are ignored. Every command passes the door's rule first
    /// (``FileWriteRule``, keyed by the command's ``CommandCapability``): a control client's
    /// command that writes a file is refused, or kept inside the client directory.
    /// A `quit` among them (without a host) resumes ``untilQuit()`` once its reply is sent.
    public func dispatch(_ line: String, from client: ControlClientID) async {
        await dispatchLine(line, from: client)
        releaseQuitWaiters()
    }

    private func dispatchLine(_ line: String, from client: ControlClientID) async {
        guard !line.trimmingWhitespaceAndNewlines().isEmpty else { return }
        if client != .console && hub?.isConnected(client) != true { return }     // it left: nobody to answer
        if client != .console, hub?.dialect(of: client) == .gstplayAndMpv, let request = MpvRequest.parse(line) {
            if case .success(let command) = request.command, command.capability != .controlsPlayback {
                return reply(WireMpv.Reply(id: request.id, error: MpvFailure.commandFailed.message, data: nil).line, to: client)
            }
            return await run(request, from: client)
        }
        let request = JSONProtocol.parseRequest(line)
        switch request.command.flatMap({ configuration.fileWriteRule.admit($0, from: CommandDoor(client)) }) {
        case .failure(let error):
            reply(Reply(id: request.id, error: error.message).line, to: client)
        case .success(let command):
            let outcome = await execute(command)
            reply(Reply(id: request.id, error: outcome.error, data: outcome.data).line, to: client)
        }
        notifyObservers()
    }

    /// A reply line to `client`: the console writer for the console, else through the hub.
    func reply(_ line: String, to client: ControlClientID) {
        if client == .console {
            toConsole(line)
        } else {
            hub?.send(line, to: client)
        }
    }

    /// One player event, for every door: its JSON lines (``WireEventLines``: the event's line,
    /// an item's end as `eos`, a buffering level's `message`) to every client and to the console
    /// (a served one, or the host's with ``Configuration/consoleEvents``), then the mpv events it
    /// makes (an item's end as `end-file`) to the mpv clients that want them, then every observer
    /// whose property changed; then the session's step for it (`advanceSession(_:)`: the track
    /// choices per item). A host passes every record of `Player/records` here, in order (also
    /// those of the shutdown drain); a control with a hub of its own does that itself.
    public func report(_ record: PlayerEventRecord) {
        defer { advanceSession(record) }
        var event = record.event
        if case .itemEnded(_, _, let position)? = event.payload(as: QueueEvent.self) { event = .endOfStream(position: position) }
        sendLines(for: event, of: record)
        guard let hub else { return }
        let queue = record.snapshot.features[QueueSnapshot.self]
        let entry = queue?.currentIndex.flatMap { queue?.items[$0].id } ?? 0
        let lines = mpv.tracker.lines(for: event, entryID: Int64(entry))
        let clients = hub.clientIDs(speaking: .gstplayAndMpv)
        guard !clients.isEmpty else { return }
        for line in lines {
            for client in clients where mpv.sessions[client]?.wants(line.name) ?? true {
                hub.send(line.line, to: client)
            }
        }
        notifyObservers()
    }

    /// `event`'s JSON lines to every client and to the console, when anyone listens. The item it
    /// belongs to: the queue's current one as `record`'s snapshot stood (none before the first load).
    private func sendLines(for event: PlayerEvent, of record: PlayerEventRecord) {
        let consoleListens = requests == nil ? configuration.consoleEvents : consoleOutput != nil
        guard consoleListens || hub?.hasClients == true else { return }
        var loaded = record.snapshot.uri != nil
        if case .uriLoaded = event { loaded = true }
        let queue = record.snapshot.features[QueueSnapshot.self]
        let item = loaded ? queue.map { ($0.currentIndex ?? 0, $0.items.count) } : nil
        for line in wireLines.lines(for: event, item: item, loadID: record.loadID) where !line.isEmpty {
            if consoleListens { toConsole(line) }
            hub?.broadcast(line)
        }
    }

    /// The view the mpv properties are read from: the player's snapshot now (a setter's value is
    /// in it as soon as the setter returns, so a `get_property` right after a `set_property` sees
    /// the new value, as in mpv, whichever door set it), plus the tracker's.
    func mpvView() -> MpvView {
        MpvView(snapshot: player.snapshot, tags: mpv.tracker.tags,
              eofReached: mpv.tracker.eofReached, names: names.all)
    }

    /// Sends `property-change` for every observed property whose value differs from the one
    /// last sent to that observer (the first evaluation always sends: mpv's initial change).
    func notifyObservers() {
        guard let hub, mpv.sessions.values.contains(where: { !$0.observers.isEmpty }) else { return }
        let view = mpvView()
        var values: [String: MpvValue?] = [:]
        for client in Array(mpv.sessions.keys) {
            guard var session = mpv.sessions[client] else { continue }
            for index in session.observers.indices {
                let observer = session.observers[index]
                let value = values[observer.name] ?? (try? MpvProperties.value(of: observer.name, in: view).get())
                values[observer.name] = value
                let data = observer.asText ? value.flatMap { $0.text.map(MpvValue.string) } : value
                if let last = observer.last, last == data { continue }
                session.observers[index].last = .some(data)
                if session.wants("property-change") {
                    hub.send(WireMpv.propertyChange(id: observer.id, name: observer.name, value: data), to: client)
                }
            }
            mpv.sessions[client] = session
        }
    }

    /// On the way out: mpv clients get `end-file` (if a file is open) and `shutdown`; later events
    /// (the shutdown drain) no longer change the session (track choices, resume).
    public func shutdown() {
        isShutDown = true
        guard let hub else { return }
        for line in mpv.tracker.shutdownLines() {
            for client in hub.clientIDs(speaking: .gstplayAndMpv) where mpv.sessions[client]?.wants(line.name) ?? true {
                hub.send(line.line, to: client)
            }
        }
    }
}
