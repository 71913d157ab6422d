import Backend
import BackendControl
import FoundationEssentials

/// The CLI actor: the one owner of all CLI state. It consumes the ``Inbox`` (player events,
/// console lines, keys, signals) one input at a time, hands the items to the Backend's queue
/// (which walks them, gaplessly), reacts to the end of the queue and to errors, runs console
/// commands and keys through the library's dispatcher (``PlayerControl``, whose host it is:
/// PlaybackController+Input.swift), writes events, and decides the exit code.
///
/// **Thread:** the actor's own executor (Swift's cooperative pool). Player commands issued from
/// here are queued to the Backend's loop thread; their effects come back as events in the inbox.
actor PlaybackController {
    /// Settings from the command line (a plain value).
    struct Settings: Sendable {
        /// `--start`: where each item starts.
        var start: SeekArgument?
        /// `--keep-open`: stay paused at the end of each item.
        var keepOpen = false
        /// `--json`.
        var json = false
        /// `--screenshot-template`, `--screenshot-directory`.
        var screenshot = ScreenshotNaming()
        /// `--resume` with `--watch-later-options`: the store, what is saved and what is restored
        /// (less what the command line sets); nil without `--resume`.
        var resume: ResumeOptions?
        /// `--loop[=mode]`, `--shuffle`, `--no-gapless`: the queue's modes at start.
        var loop: LoopMode = .none
        var shuffle = false
        var gapless = true
        /// `--audio-track`, `--sub-track`, `--sub-file`, the offsets.
        var tracks = TrackSettings()
        /// Where control clients may write files (`--client-write-dir`; none without it); the key bindings (input.conf).
        var fileWriteRule = FileWriteRule(), bindings = InputBindings.builtin
        /// `--sync-to`: no items of its own; the leader's end of an item or of the input is not the end of the run.
        var follows = false

        /// `--start` as the Backend takes it (honoured at preroll, a fraction once the duration is known).
        var startPosition: StartPosition? {
            switch start {
            case .absolute(let time)?: .time(time)
            case .relative(let time)?: .time(time.clamped(to: nil))
            case .fraction(let fraction)?: .fraction(fraction)
            case nil: nil
            }
        }
    }

    let settings: Settings
    let reporter: EventReporter
    let output: Output
    let player: Player
    /// The start-up items, until ``start()`` hands them to the Backend's queue (then nil: the
    /// queue is the player's).
    private var setup: QueueSetup?
    /// What only the CLI decides (whether an item failed, whether the input ended). Which item an
    /// event belongs to, whether a load is under way, whether the queue stopped: the Backend's
    /// (each record's ``PlayerEventRecord/snapshot`` and load ID, ``Player/snapshot`` now).
    var policy = RunPolicy()
    /// The exit code, once decided; the run loop then shuts down.
    private(set) var exitCode: Int32?
    /// The control clients (`--input-ipc-server`, `--remote`): replies to them, events to all (nil: none).
    let hub: ControlHub?
    /// The dispatcher every console line, key and client request runs through, as an embedder's
    /// would (this actor is its ``PlayerControlHost``: the exit status).
    let control: PlayerControl

    init(player: Player, setup: QueueSetup, settings: Settings, reporting mode: EventReporter.Mode, quiet: Bool,
         showsVideoSize: Bool, output: Output,
         control: ControlHub? = nil) {
        self.player = player
        self.hub = control
        self.setup = setup
        self.control = PlayerControl(player: player, hub: control, names: LocationNames(setup.names),
                                     configuration: .init(fileWriteRule: settings.fileWriteRule, screenshot: settings.screenshot,
                                                          tracks: settings.tracks.choices, resume: settings.resume,
                                                          bindings: settings.bindings, notes: { [output] in output.err("gstplay: \($0)") },
                                                          consoleEvents: settings.json),
                                     console: { [output] in output.out($0) })
        self.settings = settings
        self.output = output
        self.reporter = EventReporter(output: output, mode: mode, quiet: quiet, showsVideoSize: showsVideoSize,
                                      snapshot: { [player] in player.snapshot }, statistics: { [player] in player.statistics })
    }

    // MARK: Lifecycle

    /// Runs the CLI: loads the first item (and waits until the loop thread ran that, so the first
    /// input already sees the load), handles inputs until the exit code is decided, stores
    /// the resume position (once, ``PlayerControl/saveResumeAtExit()``), calls `stopInput` (which puts the
    /// terminal back), shuts the player down while still reporting its last events (until
    /// `Player.events` ends), and returns the exit code.
    func run(_ inbox: Inbox, stopInput: @Sendable () -> Void) async -> Int32 {
        await control.setHost(self)
        await start()
        await commandsRan()
        var inputs = inbox.stream.makeAsyncIterator()
        while exitCode == nil, let input = await inputs.next() {
            await handle(input)
        }
        await control.saveResumeAtExit()
        await player.stopCastingAndWait()     // the renderer stops too (at most its call timeout)
        await control.shutdown()
        stopInput()
        output.closeStatus()
        player.shutdown()
        while let input = await inputs.next() {
            if case .event(let record) = input { await reportLate(record) }
            if case .eventsEnded = input { break }
        }
        return finalExitCode
    }

    /// One input (on the actor). A console line's command may wait for its result (a seek for
    /// its landing) before the next input is taken.
    func handle(_ input: CLIInput) async {
        switch input {
        case .event(let record): await handle(record)
        case .eventsEnded: finish(policy.exitCode)              // only at shutdown; never wait for more
        case .line(let line): await handle(line: line)
        case .lineTooLong(let limit): await lineTooLong(limit: limit)
        case .key(let key): await handle(keyNamed: key.name)
        case .inputEnded:                                         // playback goes on to the end
            policy.inputEnded = true
            if player.queue.items.isEmpty && !settings.follows { finish(policy.exitCode) }   // every command before ran (commandsRan)
        case .signal(let code): finish(code)
        case .request(let client, let line):
            await control.dispatch(line, from: client)
            hub?.finished(client)
        case .requestTooLong(let client, let limit): await lineTooLong(limit: limit, from: client)
        case .clientLeft(let client): await control.clientLeft(client)
        }
    }

    /// Reports start-up items that are not usable locations, sets the queue's modes and hands it
    /// the items (the first loads at once); with nothing left to play, exit 1 (with only empty
    /// directories given, one error line says so).
    private func start() async {
        guard let setup else { return }
        self.setup = nil
        for failure in setup.failures {
            output.err("gstplay: error: \(failure.location): \(failure.message)")
            policy.itemFailed = true
        }
        if settings.follows {
            await control.startTracks()
            return                              // the sync feature loads what the leader plays
        }
        guard !setup.isEmpty else {
            if setup.failures.isEmpty {
                let arguments = setup.arguments
                let contain = arguments.count == 1 ? "the directory contains" : "the directories contain"
                output.err("gstplay: error: \(arguments.joined(separator: ", ")): nothing to play (\(contain) no files)")
            }
            return finish(ExitStatus.playbackError)
        }
        player.setLoopMode(settings.loop)
        if settings.shuffle { player.setShuffled(true, seed: UInt64.random(in: 0 ... .max)) }
        player.setGapless(settings.gapless)
        player.setAdvancesAutomatically(!settings.keepOpen)
        player.setQueueItemStart(settings.startPosition)
        await control.startTracks()
        var items: [QueueItem] = []
        for item in setup.items { items.append(await control.resumed(item)) }
        try? player.setQueue(items)             // no start index: cannot throw
    }

    /// Decides the exit code (the first decision wins).
    func finish(_ code: Int32) {
        if exitCode == nil { exitCode = code }
    }

    /// The exit code returned: the decided one, or ``RunPolicy/finalCode(decided:)``'s.
    var finalExitCode: Int32 { policy.finalCode(decided: exitCode) }

    /// Waits until every player command issued so far ran on the loop thread (one
    /// ``Player/currentQueue()`` round trip), so ``Player/snapshot`` shows their effect: a load
    /// asked for is the current load (or, while a feature defers it, the queue's current item).
    func commandsRan() async {
        await control.commandsRan()
    }

    // MARK: Player events

    /// Which item `record`'s event belongs to, named as typed (the control's table).
    func item(of record: PlayerEventRecord) async -> EventItem? { await control.item(of: record) }

    /// Shows `record`'s event as belonging to the item it came from (also during the shutdown).
    /// An item that ended and was followed by the next one (gapless or not) gets its `eos` here,
    /// as the protocol promises one per item: the Backend's ``QueueEvent/itemEnded(index:id:position:)``,
    /// with the ended item's load ID.
    private func report(_ record: PlayerEventRecord) async {
        var event = record.event
        if case .itemEnded(_, _, let position)? = event.payload(as: QueueEvent.self) { event = .endOfStream(position: position) }
        reporter.report(event, item: await item(of: record))
        await control.report(record)      // the JSON lines, the mpv clients' events, the session's step
    }

    /// Reports `record`'s event and reacts to it: the end of the queue (or of each item with
    /// `--keep-open`), failed items, the queue stopping after a failure.
    private func handle(_ record: PlayerEventRecord) async {
        await report(record)
        let event = record.event
        if let queueEvent = event.payload(as: QueueEvent.self) { return await handle(queueEvent, in: record) }
        switch event {
        case .endOfStream(let position):
            guard record.isCurrent(now: player.snapshot) else { return }           // the old item's: a new one is on its way
            await control.saveResumePosition(uri: record.snapshot.uri, ended: position)
            if settings.keepOpen {
                player.pause()
            } else if !settings.follows {           // a follower waits for the leader's next item
                finish(policy.exitCode)
            }
        case .feature(let feature) where feature.payload(as: WindowEvent.self) == .closed:
            finish(policy.exitCode)                               // the window was closed: done, as mpv
        case _ where event.payload(as: WindowEvent.self) != nil:
            if let windowEvent = event.payload(as: WindowEvent.self), let name = WindowKeyNames.name(for: windowEvent) { await handle(keyNamed: name) }
        case .error(let error):
            await failed(error, item: await item(of: record))
        case .mediaInfo(let info):
            await warnIfStartIsPastTheEnd(of: info, item: await item(of: record))
        case .feature(let feature) where feature.payload is CastEvent:
            if case .castFailed(_, let message)? = feature.payload(as: CastEvent.self) { castFailed(message) }
        case .feature(let feature) where feature.payload(as: MPRISEvent.self) == .quitRequested:
            finish(policy.exitCode)                             // MPRIS Quit: like `quit`
        default:
            break
        }
    }

    /// A queue event (after ``report(_:)``): an item found unplayable, the queue stopping after a failure or emptied at the end of input.
    private func handle(_ event: QueueEvent, in record: PlayerEventRecord) async {
        switch event {
        case .itemSkipped(_, _, let error):
            await failed(error, item: nil)                          // found unplayable before its turn: reported as if it failed
        case .itemEnded, .itemChanged, .itemsInserted, .itemsRemoved, .itemMoved, .itemUpdated:
            break
        case .queueChanged(let queue):
            // Raised in `error` with no other item on its way: the queue stopped after a failure
            // (had it gone on, the next item's load would have begun or be pending first).
            if record.snapshot.state == .error && !record.snapshot.queueItemPending && !settings.keepOpen && !settings.follows { finish(policy.exitCode) }
            if queue.items.isEmpty && policy.inputEnded && player.queue.items.isEmpty && !settings.follows { finish(policy.exitCode) }
        }
    }

    /// An event of the shutdown drain (the exit is decided): reported, and a failed item still
    /// prints its error line and counts for the exit code.
    private func reportLate(_ record: PlayerEventRecord) async {
        await report(record)
        if case .error(let error) = record.event { await failed(error, item: await item(of: record)) }
    }
}
