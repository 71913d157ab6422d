import Backend
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The CLI actor: the one owner of all CLI state. It consumes the ``Inbox`` (player events,
/// console lines, keys, signals) one input at a time, hands the items to the Backend's queue
/// (which walks them, gaplessly), reacts to the end of the queue and to errors, runs console
/// commands and keys (PlaybackController+Input.swift, QueueCommands.swift), writes events and
/// replies, and decides the exit code.
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
        /// `--resume`: the store positions are kept in (nil without `--resume`).
        var resumeStore: ResumeStore?
        /// `--loop[=mode]`, `--shuffle`, `--no-gapless`: the queue's modes at start.
        var loop: LoopMode = .none
        var shuffle = false
        var gapless = true
        /// `--audio-track`, `--sub-track`, `--sub-file`, the offsets (issue #11).
        var tracks = TrackSettings()

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

    /// What we last asked the player for, so fast repeated keys step from the latest request
    /// rather than from the last event. A plain value.
    struct Requested: Sendable {
        var linearVolume: Double
        var muted: Bool
        var rate: Double
    }

    let settings: Settings
    let reporter: EventReporter
    let output: Output
    let player: Player
    /// The start-up items (handed to the Backend's queue in ``start()``, then not used as a list).
    let setup: QueueSetup
    /// URI → the location as the user typed it (start-up items and `load`).
    var names: [String: String]
    /// Resume positions not yet announced, by URI (`gstplay: resuming … at …` when the item loads).
    var resumeNotes: [String: MediaTime] = [:]
    /// A load was asked for (start, `next`, `jump`, `load`…) and its `uriLoaded` has not arrived:
    /// an end of stream until then is the old item's.
    var loadRequested = false
    /// The index of the current item, from the last `itemChanged` or `queueChanged` event.
    var currentIndex: Int?
    /// The item the arriving events belong to.
    var eventsItem: ItemContext?
    var anyFailed = false
    /// An item failed and the queue has not said yet whether it goes on (`itemChanged` with
    /// reason `error`) or stopped (a `queueChanged` first).
    var awaitingAfterError = false
    /// The console input ended (an emptied queue then ends the run).
    var inputEnded = false
    var requested: Requested
    /// Applies the track options per item.
    let trackSession: TrackSession
    /// With `--resume`: the save made on the way out (shared with the signal path's guard).
    let resumeAtExit: ResumeExitSave?
    /// The exit code, once decided; the run loop then shuts down.
    private(set) var exitCode: Int32?

    init(player: Player, setup: QueueSetup, settings: Settings, reporting mode: EventReporter.Mode, quiet: Bool,
         showsVideoSize: Bool, output: Output, initialVolume: Double = 1, initialMuted: Bool = false, initialRate: Double = 1) {
        self.player = player
        self.setup = setup
        self.names = setup.names
        self.settings = settings
        self.output = output
        self.reporter = EventReporter(output: output, mode: mode, quiet: quiet, showsVideoSize: showsVideoSize,
                                      snapshot: { [player] in player.snapshot })
        self.requested = Requested(linearVolume: initialVolume, muted: initialMuted, rate: initialRate)
        self.trackSession = TrackSession(settings: settings.tracks)
        self.resumeAtExit = settings.resumeStore.map(ResumeExitSave.init)
    }

    // MARK: Lifecycle

    /// Runs the CLI: loads the first item, handles inputs until the exit code is decided, stores
    /// the resume position (once, ``saveResumeAtExit()``), calls `stopInput` (which puts the
    /// terminal back), shuts the player down while still reporting its last events (until
    /// `Player.events` ends), and returns the exit code.
    func run(_ inbox: Inbox, stopInput: @Sendable () -> Void) async -> Int32 {
        start()
        var inputs = inbox.stream.makeAsyncIterator()
        while exitCode == nil, let input = await inputs.next() {
            await handle(input)
        }
        await saveResumeAtExit()
        stopInput()
        output.closeStatus()
        player.shutdown()
        while let input = await inputs.next() {
            if case .event(let record) = input { reportLate(record.event, loadID: record.loadID) }
            if case .eventsEnded = input { break }
        }
        return finalExitCode
    }

    /// One input (on the actor). A console line's command may wait for its result (a seek for
    /// its landing) before the next input is taken.
    func handle(_ input: CLIInput) async {
        switch input {
        case .event(let record): await handle(record.event, loadID: record.loadID)
        case .eventsEnded: finish(exitCodeNow)                  // only at shutdown; never wait for more
        case .line(let line): await handle(line: line)
        case .lineTooLong(let limit): lineTooLong(limit: limit)
        case .key(let key): await handle(key: key)
        case .inputEnded:                                         // playback goes on to the end
            inputEnded = true
            if player.queue.items.isEmpty && !loadRequested { finish(exitCodeNow) }
        case .signal(let code): finish(code)
        }
    }

    /// Reports start-up items that are not usable locations, sets the queue's modes and hands it
    /// the items (the first loads at once); with nothing left to play, exit 1 (with only empty
    /// directories given, one error line says so).
    private func start() {
        for failure in setup.failures {
            output.err("gstplay: error: \(failure.location): \(failure.message)")
            anyFailed = true
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
        for line in trackSession.start(player) { output.err(line) }
        loadRequested = true
        try? player.setQueue(setup.items.map(withResumePosition))             // no start index: cannot throw
    }

    /// Decides the exit code (the first decision wins).
    func finish(_ code: Int32) {
        if exitCode == nil { exitCode = code }
    }

    var exitCodeNow: Int32 { anyFailed ? ExitStatus.playbackError : ExitStatus.success }

    /// The exit code returned: the decided one, except that 0 becomes 1 when an item failed,
    /// also when its failure arrived after the decision (during the shutdown), so the same input
    /// gives the same code whatever the timing (issue 20, item 10; the Backend reports an error
    /// still on the bus at shutdown, `Engine.reportPendingErrors`). Signal codes stay.
    var finalExitCode: Int32 {
        let decided = exitCode ?? exitCodeNow
        return decided == ExitStatus.success && anyFailed ? ExitStatus.playbackError : decided
    }

    // MARK: Player events

    /// The location to show for `uri`: as the user typed it, else the URI.
    func name(of uri: String) -> String { names[uri] ?? uri }

    /// Shows `event` as belonging to the item it came from (also during the shutdown). An item
    /// that ended and was followed by the next one (gapless or not) gets its `eos` here, as the
    /// protocol promises one per item: the Backend's ``QueueEvent/itemEnded(index:id:position:)``.
    /// `loadID` is the load the event belongs to (an item's end: the ended item's).
    private func report(_ event: PlayerEvent, loadID: LoadID?) {
        switch event {
        case .feature(let feature):
            switch feature.payload(as: QueueEvent.self) {
            case .itemChanged(let index, _, _)?: currentIndex = index
            case .queueChanged(let queue)?: currentIndex = queue.currentIndex   // the first item's index comes this way (no `item` event)
            case .itemEnded(_, _, let position)?: return reporter.report(.endOfStream(position: position), item: eventsItem, loadID: loadID)
            case nil: break
            }
        case .uriLoaded(let uri):
            loadRequested = false
            eventsItem = ItemContext(index: currentIndex ?? player.queue.currentIndex ?? 0, count: player.queue.items.count,
                                     location: name(of: uri), uri: uri)
        default:
            break
        }
        reporter.report(event, item: eventsItem, loadID: loadID)
        if case .uriLoaded(let uri) = event, let position = resumeNotes.removeValue(forKey: uri) {
            output.err("gstplay: resuming \(name(of: uri)) at \(position.formatted(fractionDigits: 1))")
        }
    }

    /// Reports `event` and reacts to it: the end of the queue (or of each item with
    /// `--keep-open`), failed items, the queue stopping after a failure.
    private func handle(_ event: PlayerEvent, loadID: LoadID?) async {
        report(event, loadID: loadID)
        if let queueEvent = event.payload(as: QueueEvent.self) { return handle(queueEvent) }
        switch event {
        case .endOfStream(let position):
            guard !loadRequested else { return }             // the old item's, a new one is on its way
            await saveResumePosition(ended: position)
            if settings.keepOpen {
                player.pause()
            } else {
                finish(exitCodeNow)
            }
        case .feature(let feature) where feature.payload(as: TracksEvent.self)?.isTracksChanged == true:
            for line in trackSession.tracksArrived(player) { output.err(line) }
        case _ where event.payload(as: WindowEvent.self) != nil:
            if case .key(let name)? = event.payload(as: WindowEvent.self), let key = WindowKeys.key(forKeysym: name) { await handle(key: key) }
        case .error(let error):
            failed(error)
            awaitingAfterError = true
        default:
            break
        }
    }

    /// A queue event (after ``report(_:)``): the end of an item (its resume position is
    /// forgotten), a new item, the queue stopping after a failure or emptied at the end of input.
    private func handle(_ event: QueueEvent) {
        switch event {
        case .itemEnded:
            if let finished = eventsItem?.uri { forgetResumePosition(uri: finished) }
        case .itemChanged(_, _, let reason):
            trackSession.itemChanged()
            if reason == .error { awaitingAfterError = false }
        case .queueChanged(let queue):
            if awaitingAfterError {                          // the queue stopped after a failure
                awaitingAfterError = false
                if !settings.keepOpen { finish(exitCodeNow) }
            }
            if queue.items.isEmpty && inputEnded && !loadRequested { finish(exitCodeNow) }
        }
    }

    /// An event of the shutdown drain (the exit is decided): reported, and a failed item still
    /// prints its error line and counts for the exit code.
    private func reportLate(_ event: PlayerEvent, loadID: LoadID?) {
        report(event, loadID: loadID)
        if case .error(let error) = event { failed(error) }
    }

    /// A failed item: its one error line, and exit code 1.
    private func failed(_ error: PlayerError) {
        let location = error.uri.flatMap { names[$0] } ?? eventsItem?.location ?? error.uri ?? "?"
        reporter.failure(location: location, error: error)
        anyFailed = true
    }
}
