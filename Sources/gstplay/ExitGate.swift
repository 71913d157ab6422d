import Dispatch
import Synchronization

/// The one place the process's exit code is decided: the first ``finish(_:)`` wins and wakes
/// the main thread blocked in ``wait()``, which then shuts everything down.
///
/// **Thread:** ``finish(_:)`` from any thread (controller queue, signal queue); ``wait()`` on
/// the main thread.
final class ExitGate: Sendable {
    private let code = Mutex<Int32?>(nil)
    private let semaphore = DispatchSemaphore(value: 0)

    /// Records `code` if no code was recorded yet; returns false when one already was.
    @discardableResult
    func finish(_ code: Int32) -> Bool {
        let first = self.code.withLock { current -> Bool in
            guard current == nil else { return false }
            current = code
            return true
        }
        if first { semaphore.signal() }
        return first
    }

    /// True once an exit code is decided.
    var isFinished: Bool { code.withLock { $0 != nil } }

    /// Blocks until ``finish(_:)`` and returns the code.
    func wait() -> Int32 {
        semaphore.wait()
        return code.withLock { $0 ?? 1 }
    }
}

/// Exit codes (documented in docs/CLI.md). Constants; any thread.
enum ExitStatus {
    /// Played to the end, or quit, with no failed item.
    static let success: Int32 = 0
    /// At least one item failed to play.
    static let playbackError: Int32 = 1
    /// Bad command line (ArgumentParser's validation errors, no arguments).
    static let usage: Int32 = 2
    /// Interrupted (SIGINT, Ctrl-C).
    static let interrupted: Int32 = 130
    /// Terminated (SIGTERM).
    static let terminated: Int32 = 143
}
