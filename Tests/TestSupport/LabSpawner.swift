import Foundation

/// Starts the lab's renderers from one thread that lives as long as the test process. A
/// renderer runs under `setpriv --pdeathsig KILL`, and the kernel sends that signal when the
/// *thread* that started it ends, not the process: an async test runs on dispatch worker threads,
/// which libdispatch retires when idle, and a renderer started there was killed mid-test. Any
/// thread; ``start(_:)`` returns once the child runs.
final class LabSpawner: @unchecked Sendable {
    /// The one spawner of the test process.
    static let shared = LabSpawner()

    private let condition = NSCondition()
    private var work: [() -> Void] = []

    private init() {
        let thread = Thread { [self] in
            // A new thread inherits its creator's signal mask, and a child inherits the spawning
            // thread's: created from a libdispatch worker (an async test), which blocks most
            // signals, every renderer had SIGTERM blocked and ignored `stop()`
            // (RendererSignalMaskTests). The children get an empty mask.
            var none = sigset_t()
            sigemptyset(&none)
            pthread_sigmask(SIG_SETMASK, &none, nil)
            while true {
                condition.lock()
                while work.isEmpty { condition.wait() }
                let next = work.removeFirst()
                condition.unlock()
                next()
            }
        }
        thread.name = "renderer-lab-spawner"
        thread.start()
    }

    /// Starts `child` on the spawner's thread; throws what `start()` threw.
    func start(_ child: GstplayProcess) throws {
        let done = DispatchSemaphore(value: 0)
        var failure: Error?
        condition.lock()
        work.append {
            do { try child.start() } catch { failure = error }
            done.signal()
        }
        condition.signal()
        condition.unlock()
        done.wait()
        if let failure { throw failure }
    }
}
