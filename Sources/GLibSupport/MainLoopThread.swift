import CGStreamer
import Dispatch
import Synchronization

/// A `GMainContext` with a `GMainLoop` running on a dedicated GLib thread: the one place
/// the Backend's GLib plumbing lives (thread, invoke, timers, teardown).
///
/// **Threads:** ``invoke(_:)`` and ``isOnLoopThread`` may be called from any thread; sources
/// returned by ``addTimer(every:_:)`` and ``addReadWatch(fileDescriptor:_:)`` (and BackendCore's
/// bus watch) must be created and destroyed on the loop thread.
package final class MainLoopThread: @unchecked Sendable {
    /// The context everything of this player runs on (`g_main_context_new`).
    package let context: OpaquePointer
    private let loop: OpaquePointer
    /// Set by `init`; taken by the first ``quitAndJoin()``, under the `closed` lock.
    private var thread: UnsafeMutablePointer<GThread>?
    /// Waited for by `init`. GLib would keep work invoked before the loop runs, but this wait
    /// also puts the loop in `poll` before any invoke, so each invoke's hand-over goes through
    /// the context's wakeup (an eventfd), an order ThreadSanitizer sees; the context's own lock
    /// is futex-based and invisible to it (without the wait it reported the first invokes'
    /// captured values, such as the engine `Player.init` makes, as races).
    private let started = DispatchSemaphore(value: 0)
    /// Set once the loop is quitting: later work is refused instead of queued forever.
    private let closed = Mutex<Bool>(false)

    /// Creates the context and starts the thread (`g_thread_new` running `g_main_loop_run`);
    /// returns once the loop owns its context.
    package init(name: String) {
        context = g_main_context_new()
        loop = g_main_loop_new(context, 0)
        let box = CallbackBox(self)
        thread = g_thread_new(name, { data in
            let owner = CallbackBox<MainLoopThread>.from(data!).value
            Unmanaged<CallbackBox<MainLoopThread>>.fromOpaque(data!).release()
            owner.runLoop()
            return nil
        }, box.retainedPointer)
        started.wait()
    }

    private func runLoop() {
        g_main_context_push_thread_default(context)
        // Signal "started" from inside the loop, when the context is owned.
        let signal = CallbackBox(started)
        g_main_context_invoke_full(context, G_PRIORITY_HIGH, { data in
            CallbackBox<DispatchSemaphore>.from(data!).value.signal()
            return 0
        }, signal.retainedPointer, callbackBoxRelease)
        g_main_loop_run(loop)
        // Quit from this thread (a shutdown begun in a callback): nobody joins to drain, so run
        // what was queued before `closed` was set here, so nobody waits on it forever.
        while g_main_context_iteration(context, 0) != 0 {}
        g_main_context_pop_thread_default(context)
    }

    /// True on the loop thread while the loop runs (`g_main_context_is_owner`).
    package var isOnLoopThread: Bool { g_main_context_is_owner(context) != 0 }

    /// Runs after every piece of work this thread dispatches (queued work, timers, bus
    /// watches): the engine delivers the events that work raised here, once its handler has
    /// returned. Set once, on the loop thread, before any work is queued.
    package var afterDispatch: (() -> Void)?

    /// Queues `work` on the loop thread (a `g_idle_source_new` attached to the context, at
    /// default priority, FIFO with other queued work). Never runs `work` inline, not even when
    /// called on the loop thread: a command issued from an event handler runs after that
    /// handler has returned, so the engine is never re-entered. Returns false, without queueing
    /// it, once ``quitAndJoin()`` has begun; work queued before that still runs.
    @discardableResult
    package func invoke(_ work: @escaping () -> Void) -> Bool {
        closed.withLock { isClosed in
            guard !isClosed else { return false }
            let box = CallbackBox<(MainLoopThread, () -> Void)>((self, work))
            CGStreamer_idle_attach(context, G_PRIORITY_DEFAULT, { data in
                let (thread, work) = CallbackBox<(MainLoopThread, () -> Void)>.from(data!).value
                work()
                thread.afterDispatch?()
                return 0 // G_SOURCE_REMOVE
            }, box.retainedPointer, callbackBoxRelease)
            return true
        }
    }

    /// Runs `work` on the loop thread and waits for it (``invoke(_:)``, then a semaphore);
    /// true once it has run. Refused — false at once, `work` never runs — on the loop thread
    /// itself (it cannot wait for itself, and running `work` inline would re-enter whatever
    /// handler is running) and once the loop is shut down. Callers on the loop thread answer
    /// from what they already have instead.
    @discardableResult
    package func invokeAndWait(_ work: @escaping () -> Void) -> Bool {
        guard !isOnLoopThread else { return false }
        let done = DispatchSemaphore(value: 0)
        guard invoke({ work(); done.signal() }) else { return false }
        done.wait()
        return true
    }

    /// A repeating (or one-shot, when `body` returns false) timer on this context
    /// (`g_timeout_source_new` + `g_source_attach`). Loop thread only.
    package func addTimer(every interval: Duration, _ body: @escaping () -> Bool) -> TimerSource {
        let box = CallbackBox<(MainLoopThread, () -> Bool)>((self, body))
        let source = CGStreamer_timeout_attach(context, interval.glibMilliseconds, { data in
            let (thread, body) = CallbackBox<(MainLoopThread, () -> Bool)>.from(data!).value
            let keep = body()
            thread.afterDispatch?()
            return keep ? 1 : 0
        }, box.retainedPointer, callbackBoxRelease)!
        return TimerSource(source: source)
    }

    /// Watches `fd` on this context (`g_unix_fd_source_new` + `g_source_attach`): `body` runs on
    /// the loop thread whenever `fd` is readable (or hung up), until it returns false or the
    /// source is destroyed. Loop thread only.
    package func addReadWatch(fileDescriptor fd: Int32, _ body: @escaping () -> Bool) -> TimerSource {
        let box = CallbackBox<(MainLoopThread, () -> Bool)>((self, body))
        let source = CGStreamer_fd_watch_attach(context, fd, { _, _, data in
            let (thread, body) = CallbackBox<(MainLoopThread, () -> Bool)>.from(data!).value
            let keep = body()
            thread.afterDispatch?()
            return keep ? 1 : 0
        }, box.retainedPointer, callbackBoxRelease)!
        return TimerSource(source: source)
    }

    /// Quits the loop and joins the thread (`g_main_loop_quit`, `g_thread_join`). From the loop
    /// thread itself it only quits and detaches (`g_thread_unref`). Idempotent, from any thread:
    /// the first call (under the `closed` lock) takes the thread; the others return at once.
    package func quitAndJoin() {
        let thread = closed.withLock { isClosed -> UnsafeMutablePointer<GThread>? in
            guard !isClosed else { return nil }
            isClosed = true
            defer { self.thread = nil }
            return self.thread
        }
        guard let thread else { return }
        g_main_loop_quit(loop)
        // Wake the context in case it is blocked in poll.
        g_main_context_wakeup(context)
        if g_thread_self() == thread {
            g_thread_unref(thread)
            return
        }
        _ = g_thread_join(thread)
        // Run what was queued before `closed` was set, so nobody waits on it forever.
        if g_main_context_acquire(context) != 0 {
            while g_main_context_iteration(context, 0) != 0 {}
            g_main_context_release(context)
        }
    }

    deinit {
        quitAndJoin()
        g_main_loop_unref(loop)
        // Destroys any queued invokes, releasing their boxes without running them.
        g_main_context_unref(context)
    }
}

/// A GLib source owned by Swift: `destroy()` removes it from its context (`g_source_destroy`)
/// and drops our reference (`g_source_unref`); so does `deinit`. Loop thread only.
public final class TimerSource {
    private var source: UnsafeMutablePointer<GSource>?
    package init(source: UnsafeMutablePointer<GSource>) { self.source = source }

    /// Removes the source; its callback box is released by GLib. Idempotent.
    public func destroy() {
        guard let source else { return }
        self.source = nil
        g_source_destroy(source)
        g_source_unref(source)
    }

    /// True once the source has run to completion or was destroyed.
    public var isFinished: Bool {
        guard let source else { return true }
        return g_source_is_destroyed(source) != 0
    }

    deinit { destroy() }
}
