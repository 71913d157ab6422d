import Backend
import Foundation
import Synchronization

/// The CLI's brain: the ``PlayerDelegate`` that walks the playlist, reacts to end of stream and
/// errors, runs console commands and keys (PlaybackController+Input.swift), and decides the
/// exit code (through ``ExitGate``).
///
/// **Thread:** everything runs on ``queue``, a serial queue that is also the Player's
/// `delegateQueue` — so delegate callbacks arrive there (not on the Backend's loop thread) and
/// the console/key threads hop onto it. Player commands issued from here are therefore queued
/// to the loop thread, never run inline, and never re-enter this class. The mutable state
/// also sits behind a `Mutex`, and no Player method is called while it is held.
final class PlaybackController: PlayerDelegate {
    /// Settings from the command line (a plain value).
    struct Settings: Sendable {
        /// `--start`: where each item starts.
        var start: SeekArgument?
        /// `--keep-open`: stay paused at the end of each item.
        var keepOpen = false
        /// `--json`.
        var json = false
    }

    /// The mutable state (controller queue; behind ``state``).
    struct State {
        var player: Player?
        var playlist: Playlist
        /// Loads issued whose `uriLoaded` has not arrived yet (events until then are the old item's).
        var pendingLoads: [ItemContext] = []
        /// The item the arriving events belong to.
        var eventsItem: ItemContext?
        /// A `--start N%` still to apply for the current item (at media-info, once the duration is known).
        var fractionStartPending = false
        var anyFailed = false
        /// Something played since the playlist last wrapped (guards `--loop` over failing items).
        var playedInPass = false
        var finished = false
        /// Our own record of what we asked for, so fast repeated keys step from the latest request.
        var linearVolume: Double
        var muted: Bool
        var rate: Double
    }

    /// The serial queue all of this runs on.
    let queue: DispatchQueue
    let settings: Settings
    let reporter: EventReporter
    let output: Output
    private let exitGate: ExitGate
    let state: Mutex<State>

    init(queue: DispatchQueue, playlist: Playlist, settings: Settings, reporter: EventReporter, output: Output,
         exitGate: ExitGate, initialVolume: Double = 1, initialMuted: Bool = false, initialRate: Double = 1) {
        self.queue = queue
        self.settings = settings
        self.reporter = reporter
        self.output = output
        self.exitGate = exitGate
        self.state = Mutex(State(playlist: playlist, linearVolume: initialVolume, muted: initialMuted, rate: initialRate))
    }

    func onQueue() { dispatchPrecondition(condition: .onQueue(queue)) }

    // MARK: Lifecycle

    /// Takes the player and loads the first item (on ``queue``).
    func start(player: Player) {
        onQueue()
        let emptyArguments = state.withLock { state -> [String]? in
            state.player = player
            return state.playlist.isEmpty ? state.playlist.arguments : nil
        }
        if let emptyArguments {
            // Only empty directories were given: one error line naming them.
            let contain = emptyArguments.count == 1 ? "the directory contains" : "the directories contain"
            output.err("gstplay: error: \(emptyArguments.joined(separator: ", ")): nothing to play (\(contain) no files)")
            finish(ExitStatus.playbackError)
            return
        }
        loadCurrent()
    }

    /// Stops reacting to events and input (on ``queue``), once the exit code is decided.
    func markFinished() {
        onQueue()
        state.withLock { $0.finished = true }
    }

    func finish(_ code: Int32) {
        state.withLock { $0.finished = true }
        exitGate.finish(code)
    }

    var exitCodeNow: Int32 {
        state.withLock { $0.anyFailed } ? ExitStatus.playbackError : ExitStatus.success
    }

    /// Loads the playlist's current item; an unusable location is reported and skipped.
    func loadCurrent() {
        while true {
            guard let (player, item) = state.withLock({ state -> (Player, ItemContext)? in
                guard let player = state.player, let location = state.playlist.current else { return nil }
                return (player, ItemContext(index: state.playlist.index, count: state.playlist.count, location: location))
            }) else { return }
            do {
                let uri = try MediaLocation.uri(for: item.location)
                state.withLock {
                    $0.pendingLoads.append(item)
                    $0.fractionStartPending = false
                }
                player.load(uri)
                switch settings.start {
                case .absolute(let time)?: player.seek(to: time)
                case .relative(let time)?: player.seek(to: time.clamped(to: nil))
                case .fraction?:
                    state.withLock { $0.fractionStartPending = true }
                case nil: break
                }
                return
            } catch {
                reporter.failure(location: item.location, error: error)
                state.withLock { $0.anyFailed = true }
                guard moveOn() else { return }
            }
        }
    }

    /// After an item ended or failed: moves to the next item (wrapping with `--loop` unless a
    /// whole pass played nothing). Returns true when there is a new current item to load;
    /// otherwise finishes (or, with `--keep-open`, stays) and returns false.
    private func moveOn() -> Bool {
        let advanced = state.withLock { state -> Bool in
            if state.playlist.nextWraps {
                guard state.playedInPass else { return false }
                state.playedInPass = false
            }
            return state.playlist.advance()
        }
        if advanced { return true }
        if !settings.keepOpen { finish(exitCodeNow) }
        return false
    }

    // MARK: PlayerDelegate (on `queue`)

    func player(_ player: Player, didReceive event: PlayerEvent) {
        onQueue()
        let (item, finished, stale) = state.withLock { state -> (ItemContext?, Bool, Bool) in
            if case .uriLoaded = event, !state.pendingLoads.isEmpty {
                state.eventsItem = state.pendingLoads.removeFirst()
            }
            return (state.eventsItem, state.finished, !state.pendingLoads.isEmpty)
        }
        reporter.report(event, item: item)
        guard !finished, !stale else { return }
        switch event {
        case .stateChanged(_, .playing):
            state.withLock { $0.playedInPass = true }
        case .mediaInfo(let info):
            let applyFraction = state.withLock { state -> Bool in
                defer { state.fractionStartPending = false }
                return state.fractionStartPending
            }
            if applyFraction, case .fraction(let fraction)? = settings.start {
                if info.duration != nil { player.seek(toFraction: fraction) }
                player.play()
            }
        case .endOfStream:
            state.withLock { $0.playedInPass = true }
            if settings.keepOpen {
                player.pause()
            } else if moveOn() {
                loadCurrent()
            }
        case .error(let error):
            reporter.failure(location: item?.location ?? error.uri ?? "?", error: error)
            state.withLock { $0.anyFailed = true }
            if moveOn() { loadCurrent() }
        default:
            break
        }
    }
}
