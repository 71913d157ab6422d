import CGStreamer
import Dispatch
import Synchronization

/// A `GMainContext` with a `GMainLoop` running on a dedicated GLib thread: the one place
/// the Backend's GLib plumbing lives (thread, invoke, timers, teardown).
///
/// **Threads:** ``invoke(_:)`` and ``isOnLoopThread`` may be called from any thread; sources
/// returned by ``addTimer(milliseconds:_:)`` must be created and destroyed on the loop thread.
final class MainLoopThread: @unchecked Sendable {
    /// The context everything of this player runs on (`g_main_context_new`).
    let context: OpaquePointer
    private let loop: OpaquePointer
    private var thread: UnsafeMutablePointer<GThread>?
    private let started = DispatchSemaphore(value: 0)
    /// Set once the loop is quitting: later work is refused instead of queued forever.
    private let closed = Mutex<Bool>(false)

    /// Creates the context and starts the thread (`g_thread_new` running `g_main_loop_run`);
    /// returns once the loop owns its context.
    init(name: String) {
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
        g_main_context_pop_thread_default(context)
    }

    /// True on the loop thread while the loop runs (`g_main_context_is_owner`).
    var isOnLoopThread: Bool { g_main_context_is_owner(context) != 0 }

    /// Runs `work` on the loop thread (`g_main_context_invoke_full`): inline when already there,
    /// otherwise queued. Returns false, without running it, once ``quitAndJoin()`` has begun;
    /// work queued before that still runs (drained by `quitAndJoin`).
    @discardableResult
    func invoke(_ work: @escaping () -> Void) -> Bool {
        if isOnLoopThread { work(); return true }
        return closed.withLock { isClosed in
            guard !isClosed else { return false }
            let box = CallbackBox(work)
            // Not the owner: this only queues an idle source, it never runs `work` inline here.
            g_main_context_invoke_full(context, G_PRIORITY_DEFAULT, { data in
                CallbackBox<() -> Void>.from(data!).value()
                return 0 // G_SOURCE_REMOVE
            }, box.retainedPointer, callbackBoxRelease)
            return true
        }
    }

    /// Runs `work` on the loop thread and waits for it (inline when already there). Returns at
    /// once without running it when the loop is already shut down.
    func invokeAndWait(_ work: @escaping () -> Void) {
        if isOnLoopThread { work(); return }
        let done = DispatchSemaphore(value: 0)
        guard invoke({ work(); done.signal() }) else { return }
        done.wait()
    }

    /// A repeating (or one-shot, when `body` returns false) timer on this context
    /// (`g_timeout_source_new` + `g_source_attach`). Loop thread only.
    func addTimer(milliseconds: UInt32, _ body: @escaping () -> Bool) -> TimerSource {
        let box = CallbackBox(body)
        let source = CGStreamer_timeout_attach(context, milliseconds, { data in
            CallbackBox<() -> Bool>.from(data!).value() ? 1 : 0
        }, box.retainedPointer, callbackBoxRelease)!
        return TimerSource(source: source)
    }

    /// Quits the loop and joins the thread (`g_main_loop_quit`, `g_thread_join`). From the loop
    /// thread itself it only quits and detaches (`g_thread_unref`). Idempotent.
    func quitAndJoin() {
        guard let thread else { return }
        self.thread = nil
        closed.withLock { $0 = true }
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
/// and drops our reference (`g_source_unref`). Loop thread only.
final class TimerSource {
    private var source: UnsafeMutablePointer<GSource>?
    init(source: UnsafeMutablePointer<GSource>) { self.source = source }

    /// Removes the source; its callback box is released by GLib. Idempotent.
    func destroy() {
        guard let source else { return }
        self.source = nil
        g_source_destroy(source)
        g_source_unref(source)
    }

    /// True once the source has run to completion or was destroyed.
    var isFinished: Bool {
        guard let source else { return true }
        return g_source_is_destroyed(source) != 0
    }

    deinit { destroy() }
}
