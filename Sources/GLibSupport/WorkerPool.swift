import CGStreamer
import Synchronization

/// One GLib worker for blocking work off the caller's thread (`GThreadPool` of one thread, not
/// exclusive): tasks run one at a time, in the order given, on a thread GLib starts when work
/// arrives and keeps for the next task, instead of a new thread per call. Idle threads go back to
/// GLib's shared pool (named `pool-…` in /proc), so a player that is gone leaves none of its own.
/// `package`: shared by the package's targets, not part of the embedders' API.
///
/// **Thread:** any; tasks run on the worker thread.
package final class WorkerPool: @unchecked Sendable {
    /// The pool; tasks are ``Task`` pointers it hands to the worker.
    private let pool: UnsafeMutablePointer<GThreadPool>?

    /// One queued call. GLib hands it over under its own futex-based lock, which ThreadSanitizer
    /// cannot see; the release store before the push and the acquire load before the call state
    /// the same order in atomics it does see, so what the caller wrote before `run` is not
    /// reported as a race with what the task reads.
    private final class Task: Sendable {
        let work: @Sendable () -> Void
        let handedOver = Atomic<Bool>(false)
        init(_ work: @escaping @Sendable () -> Void) { self.work = work }
    }

    /// A worker with no thread yet (`g_thread_pool_new`, at most one thread).
    package init() {
        pool = g_thread_pool_new({ data, _ in
            guard let data else { return }
            let task = Unmanaged<Task>.fromOpaque(data).takeRetainedValue()
            guard task.handedOver.load(ordering: .acquiring) else { preconditionFailure("a worker task ran before it was queued") }
            task.work()
        }, nil, 1, 0, nil)
    }

    /// Queues `work` for the worker (`g_thread_pool_push`): it runs after the tasks queued before.
    package func run(_ work: @escaping @Sendable () -> Void) {
        guard let pool else { return DetachedThread.start(name: "gstplay-worker", work) }
        let task = Task(work)
        task.handedOver.store(true, ordering: .releasing)
        _ = g_thread_pool_push(pool, Unmanaged.passRetained(task).toOpaque(), nil)
    }

    /// Lets the pool go without waiting (`g_thread_pool_free`, neither immediate nor waiting):
    /// the tasks queued still run, then GLib frees it.
    deinit {
        if let pool { g_thread_pool_free(pool, 0, 0) }
    }
}
