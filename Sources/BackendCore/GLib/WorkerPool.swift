import CGStreamer

/// One GLib worker for blocking work off the caller's thread (`GThreadPool` of one thread, not
/// exclusive): tasks run one at a time, in the order given, on a thread GLib starts when work
/// arrives and keeps for the next task, instead of a new thread per call. Idle threads go back to
/// GLib's shared pool (named `pool-…` in /proc), so a player that is gone leaves none of its own.
/// `package`: shared by the package's targets, not part of the embedders' API.
///
/// **Thread:** any; tasks run on the worker thread.
package final class WorkerPool: @unchecked Sendable {
    /// The pool; tasks are `CallbackBox<@Sendable () -> Void>` pointers it hands to the worker.
    private let pool: UnsafeMutablePointer<GThreadPool>?

    /// A worker with no thread yet (`g_thread_pool_new`, at most one thread).
    package init() {
        pool = g_thread_pool_new({ data, _ in
            guard let data else { return }
            let task = Unmanaged<CallbackBox<@Sendable () -> Void>>.fromOpaque(data).takeRetainedValue()
            task.value()
        }, nil, 1, 0, nil)
    }

    /// Queues `work` for the worker (`g_thread_pool_push`): it runs after the tasks queued before.
    package func run(_ work: @escaping @Sendable () -> Void) {
        guard let pool else { return DetachedThread.start(name: "gstplay-worker", work) }
        _ = g_thread_pool_push(pool, CallbackBox(work).retainedPointer, nil)
    }

    /// Lets the pool go without waiting (`g_thread_pool_free`, neither immediate nor waiting):
    /// the tasks queued still run, then GLib frees it.
    deinit {
        if let pool { g_thread_pool_free(pool, 0, 0) }
    }
}
