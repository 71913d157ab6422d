import Dispatch
import Foundation

/// SIGINT and SIGTERM as `DispatchSource` signal sources (the default actions are ignored so
/// the sources see them): the first one asks the ``ExitGate`` for 130/143, which makes the
/// main thread restore the terminal and shut down cleanly; a second one while that is under
/// way restores the terminal and leaves at once with `_exit`. SIGPIPE is ignored so a closed
/// pipe shows up as a failed `write`, not a dead process. Job control: SIGTSTP (Ctrl-Z) puts
/// the terminal back before stopping (`SIGSTOP`), SIGCONT (`fg`) re-enters raw mode.
///
/// **Thread:** ``install()`` on the main thread; handlers run on a private serial queue.
final class SignalWatcher {
    private let queue = DispatchQueue(label: "gstplay.signals")
    private let sources: [any DispatchSourceSignal]

    init(exitGate: ExitGate) {
        var sources: [any DispatchSourceSignal] = []
        for (number, code) in [(SIGINT, ExitStatus.interrupted), (SIGTERM, ExitStatus.terminated)] {
            let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
            source.setEventHandler {
                if !exitGate.finish(code) {
                    RawTerminal.restore()
                    _exit(code)
                }
            }
            sources.append(source)
        }
        let stop = DispatchSource.makeSignalSource(signal: SIGTSTP, queue: queue)
        stop.setEventHandler {
            RawTerminal.suspend()
            kill(getpid(), SIGSTOP)
        }
        let resume = DispatchSource.makeSignalSource(signal: SIGCONT, queue: queue)
        resume.setEventHandler { RawTerminal.resume() }
        sources += [stop, resume]
        self.sources = sources
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
