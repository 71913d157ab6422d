import Backend
import Dispatch
import FoundationEssentials
import GLibSupport
import Glibc
import Synchronization

/// SIGINT, SIGTERM, SIGHUP and SIGQUIT as `DispatchSource` signal sources (see ``install()``). The first one sends ``CLIInput/signal(_:)`` with 130/143/129/131
/// to the CLI actor, which stores the resume position, restores the terminal and shuts down
/// cleanly, and arms the ``ExitGuard``: if the process is still there after
/// ``ExitGuard/deadline`` (a stuck Backend shutdown, a blocked loop thread), the guard stores the
/// position itself, restores the terminal and leaves with `_exit`. A second signal does that at
/// once. SIGPIPE is ignored so a closed pipe shows up as a failed `write`, not a dead process.
/// Job control: SIGTSTP (Ctrl-Z) puts the terminal back before stopping (`SIGSTOP`), SIGCONT
/// (`fg`) re-enters raw mode.
///
/// **Thread:** ``install()`` from any thread; handlers run on the global dispatch queue (no
/// queue of its own); the guard's deadline on a thread of its own.
final class SignalWatcher {
    /// The last resort of the signal path (any thread).
    let exitGuard = ExitGuard()
    private let sources: [any DispatchSourceSignal]

    init(inbox: Inbox) {
        var sources: [any DispatchSourceSignal] = []
        let queue = DispatchQueue.global()
        let exitGuard = exitGuard
        for (number, code) in SignalWatcher.ending {
            sources.append(DispatchSource.makeSignalSource(signal: number, queue: queue))
            sources.last!.setEventHandler {
                if exitGuard.countSignal() == 1 {
                    inbox.send(.signal(code))
                    exitGuard.arm(code)
                } else {
                    exitGuard.exitNow(code)
                }
            }
        }
        let stop = DispatchSource.makeSignalSource(signal: SIGTSTP, queue: queue)
        stop.setEventHandler {
            RawTerminal.suspend()
            kill(getpid(), SIGSTOP)
        }
        let resume = DispatchSource.makeSignalSource(signal: SIGCONT, queue: queue)
        resume.setEventHandler { RawTerminal.resume() }
        self.sources = sources + [stop, resume]
    }

    /// The signals that end gstplay, with their exit codes (128 + the signal number).
    static let ending: [(signal: Int32, code: Int32)] = [
        (SIGINT, ExitStatus.interrupted), (SIGTERM, ExitStatus.terminated), (SIGHUP, ExitStatus.hangup),
        (SIGQUIT, ExitStatus.quitSignal),
    ]

    /// Starts watching and returns once every source is registered (at most 1 s). The ending
    /// signals are not set to `SIG_IGN` first: registering a signal source installs libdispatch's
    /// own `sigaction` handler (seen in `/proc/<pid>/status` `SigCgt`), and an ignored signal
    /// arriving before that would be lost (with `SIG_IGN` first, a SIGTERM 52 ms after the start
    /// left gstplay playing in 1 of 60 runs). Until then the default action ends the process, as it should.
    func install() {
        signal(SIGPIPE, SIG_IGN)
        signal(SIGTSTP, SIG_IGN)   // handled above: restore the terminal, then SIGSTOP
        let registered = DispatchGroup()
        for source in sources {
            registered.enter()
            source.setRegistrationHandler { registered.leave() }
            source.resume()
        }
        _ = registered.wait(timeout: .now() + 1)
    }
}

/// Makes sure a signal ends gstplay within a second, whatever the other threads are doing:
/// ``arm(_:)`` starts a thread that waits ``deadline`` and then calls ``exitNow(_:)``, which
/// runs the last words (the resume save, set by the app), restores the terminal and `_exit`s
/// with the signal's code. When the clean shutdown finishes first, the process is gone before
/// the deadline and the thread with it. The last words also run from `atexit` (see
/// ``setLastWords(_:)``); once the CLI actor has stored the position they do nothing.
///
/// **Thread:** any; the deadline waits on a thread of its own (`DetachedThread`). The state is
/// the process's (one guard per process): a global, because the `atexit` handler has no context.
final class ExitGuard: Sendable {
    /// How long the clean shutdown may take after a signal before the guard ends the process.
    static let deadline: Duration = .milliseconds(500)

    /// The exit path's state, under one lock (signal handlers, the deadline's thread, `atexit`).
    private struct State {
        /// What ``exitNow(_:)`` and an `exit()` from elsewhere run first.
        var lastWords: (@Sendable () -> Void)?
        /// How many of the ending signals arrived.
        var signals = 0
        /// The deadline was started.
        var armed = false
    }
    private static let state = Mutex(State())

    /// The last words now (nil: none set).
    private static var lastWords: (@Sendable () -> Void)? { state.withLock { $0.lastWords } }

    /// Sets what ``exitNow(_:)`` runs before leaving (it must not wait on the loop thread), and
    /// registers it with `atexit` too: a library that calls `exit()` on some thread (Xlib's
    /// default error handler, when the video window is destroyed under ximagesink) runs it as well.
    func setLastWords(_ body: @escaping @Sendable () -> Void) {
        let first = ExitGuard.state.withLock { state -> Bool in
            defer { state.lastWords = body }
            return state.lastWords == nil
        }
        if first { atexit { ExitGuard.lastWords?() } }
    }

    /// Counts an ending signal; returns how many arrived so far (1: the first).
    func countSignal() -> Int {
        ExitGuard.state.withLock { state in
            state.signals += 1
            return state.signals
        }
    }

    /// Starts the deadline (once): after ``deadline``, ``exitNow(_:)`` with `code`.
    func arm(_ code: Int32) {
        let first = ExitGuard.state.withLock { state -> Bool in
            defer { state.armed = true }
            return !state.armed
        }
        guard first else { return }
        DetachedThread.start(name: "gstplay-exit") { [self] in
            let parts = ExitGuard.deadline.components
            var wait = timespec(tv_sec: Int(parts.seconds), tv_nsec: Int(parts.attoseconds / 1_000_000_000))
            var left = timespec()
            while nanosleep(&wait, &left) != 0 && errno == EINTR { wait = left }
            exitNow(code)
        }
    }

    /// Runs the last words, restores the terminal and ends the process with `code` (`_exit`: no
    /// atexit handlers or destructors that could wait on a stuck thread).
    func exitNow(_ code: Int32) -> Never {
        ExitGuard.lastWords?()
        RawTerminal.restore()
        _exit(code)
    }
}
