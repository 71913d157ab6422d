import Dispatch
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Glibc
import Synchronization

/// SIGINT and SIGTERM as `DispatchSource` signal sources (the default actions are ignored so
/// the sources see them): the first one sends ``CLIInput/signal(_:)`` with 130/143 to the CLI
/// actor, which then restores the terminal and shuts down cleanly; a second one while that is
/// under way restores the terminal and leaves at once with `_exit`. SIGPIPE is ignored so a
/// closed pipe shows up as a failed `write`, not a dead process. Job control: SIGTSTP (Ctrl-Z)
/// puts the terminal back before stopping (`SIGSTOP`), SIGCONT (`fg`) re-enters raw mode.
///
/// **Thread:** ``install()`` from any thread; handlers run on the global dispatch queue (no
/// queue of its own).
final class SignalWatcher {
    /// How many SIGINT/SIGTERM arrived (any thread).
    private final class Count: Sendable { let value = Atomic<Int>(0) }

    private let sources: [any DispatchSourceSignal]

    init(inbox: Inbox) {
        var sources: [any DispatchSourceSignal] = []
        let received = Count()
        let queue = DispatchQueue.global()
        for (number, code) in [(SIGINT, ExitStatus.interrupted), (SIGTERM, ExitStatus.terminated)] {
            sources.append(DispatchSource.makeSignalSource(signal: number, queue: queue))
            sources.last!.setEventHandler { [received] in
                if received.value.add(1, ordering: .relaxed).oldValue == 0 {
                    inbox.send(.signal(code))
                } else {
                    RawTerminal.restore()
                    _exit(code)
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

    /// Ignores the default actions and starts watching.
    func install() {
        signal(SIGPIPE, SIG_IGN)
        signal(SIGINT, SIG_IGN)
        signal(SIGTERM, SIG_IGN)
        signal(SIGTSTP, SIG_IGN)   // handled above: restore the terminal, then SIGSTOP
        for source in sources { source.resume() }
    }
}
