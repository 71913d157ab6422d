import Backend
import Foundation

/// The CLI actor: the one owner of all CLI state. It consumes the ``Inbox`` (player events,
/// console lines, keys, signals) one input at a time, walks the playlist, reacts to end of
/// stream and errors, runs console commands and keys (PlaybackController+Input.swift), writes
/// events and replies, and decides the exit code.
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
    var playlist: Playlist
    /// Loads issued whose `uriLoaded` has not arrived yet (events until then are the old item's).
    var pendingLoads: [ItemContext] = []
    /// The item the arriving events belong to.
    var eventsItem: ItemContext?
    var anyFailed = false
    /// Something played since the playlist last wrapped (guards `--loop` over failing items).
    var playedInPass = false
    var requested: Requested
    /// The exit code, once decided; the run loop then shuts down.
    private(set) var exitCode: Int32?

    init(player: Player, playlist: Playlist, settings: Settings, reporting mode: EventReporter.Mode, quiet: Bool,
         showsVideoSize: Bool, output: Output, initialVolume: Double = 1, initialMuted: Bool = false, initialRate: Double = 1) {
        self.player = player
        self.playlist = playlist
        self.settings = settings
        self.output = output
        self.reporter = EventReporter(output: output, mode: mode, quiet: quiet, showsVideoSize: showsVideoSize)
        self.requested = Requested(linearVolume: initialVolume, muted: initialMuted, rate: initialRate)
    }

    // MARK: Lifecycle

    /// Runs the CLI: loads the first item, handles inputs until the exit code is decided, calls
    /// `stopInput` (which puts the terminal back), shuts the player down while still reporting its
    /// last events (until `Player.events` ends), and returns the exit code.
    func run(_ inbox: Inbox, stopInput: @Sendable () -> Void) async -> Int32 {
        start()
        var inputs = inbox.stream.makeAsyncIterator()
        while exitCode == nil, let input = await inputs.next() {
            handle(input)
        }
        stopInput()
        output.closeStatus()
        saveResumePosition()
        player.shutdown()
        while let input = await inputs.next() {
            if case .event(let event) = input { report(event) }
            if case .eventsEnded = input { break }
        }
        return exitCode ?? exitCodeNow
    }

    /// One input (on the actor).
    func handle(_ input: CLIInput) {
        switch input {
        case .event(let event): handle(event)
        case .eventsEnded: finish(exitCodeNow)                  // only at shutdown; never wait for more
        case .line(let line): handle(line: line)
        case .lineTooLong(let limit): lineTooLong(limit: limit)
        case .key(let key): handle(key: key)
        case .inputEnded: break                                   // playback goes on to the end
        case .signal(let code): finish(code)
        }
    }

    /// Loads the first item; with only empty directories given, one error line and exit 1.
    private func start() {
        guard playlist.isEmpty else { return loadCurrent() }
        let arguments = playlist.arguments
        let contain = arguments.count == 1 ? "the directory contains" : "the directories contain"
        output.err("gstplay: error: \(arguments.joined(separator: ", ")): nothing to play (\(contain) no files)")
        finish(ExitStatus.playbackError)
    }

    /// Decides the exit code (the first decision wins).
    func finish(_ code: Int32) {
        if exitCode == nil { exitCode = code }
    }

    var exitCodeNow: Int32 { anyFailed ? ExitStatus.playbackError : ExitStatus.success }

    /// Loads the playlist's current item as typed; the Backend resolves it (once) and reports an
    /// unusable location as `uriLoaded` + `error`, handled like any failed item.
    func loadCurrent() {
        guard let location = playlist.current else { return }
        pendingLoads.append(ItemContext(index: playlist.index, count: playlist.count, location: location))
        player.load(location, startAt: startPosition(for: location))
    }

    /// After an item ended or failed: moves to the next item (wrapping with `--loop` unless a
    /// whole pass played nothing). Returns true when there is a new current item to load;
    /// otherwise finishes (or, with `--keep-open`, stays) and returns false.
    private func moveOn() -> Bool {
        if playlist.nextWraps {
            guard playedInPass else {
                if !settings.keepOpen { finish(exitCodeNow) }
                return false
            }
            playedInPass = false
        }
        if playlist.advance() { return true }
        if !settings.keepOpen { finish(exitCodeNow) }
        return false
    }

    // MARK: Player events

    /// Shows `event` as belonging to the item it came from.
    private func report(_ event: PlayerEvent) {
        if case .uriLoaded = event, !pendingLoads.isEmpty { eventsItem = pendingLoads.removeFirst() }
        reporter.report(event, item: eventsItem)
    }

    /// Reports `event` and reacts to it (end of stream, errors).
    private func handle(_ event: PlayerEvent) {
        report(event)
        guard pendingLoads.isEmpty else { return }            // the old item's late events
        switch event {
        case .stateChanged(_, .playing):
            playedInPass = true
        case .endOfStream(let position):
            playedInPass = true
            saveResumePosition(ended: position)
            if settings.keepOpen {
                player.pause()
            } else if moveOn() {
                loadCurrent()
            }
        case .windowKey(let name):
            if let key = WindowKeys.key(forKeysym: name) { handle(key: key) }
        case .error(let error):
            reporter.failure(location: eventsItem?.location ?? error.uri ?? "?", error: error)
            anyFailed = true
            if moveOn() { loadCurrent() }
        default:
            break
        }
    }
}
