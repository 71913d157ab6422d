import CGStreamer

/// A named GLib worker thread that nobody joins (`g_thread_new`, then `g_thread_unref` so the
/// thread frees itself when `body` returns). For blocking work off the caller's thread, such as
/// a thumbnail request or the CLI's blocking stdin readers, without Foundation's `Thread`.
/// `package`: shared by the package's targets (the CLI included), not part of the embedders' API.
package enum DetachedThread {
    /// Runs `body` once on a new thread called `name` (shown by `ps -L` and `/proc`; at most 15
    /// bytes survive). **Thread:** any; `body` runs on the new thread (`g_thread_new`).
    package static func start(name: String, _ body: @escaping @Sendable () -> Void) {
        let box = CallbackBox(body)
        let thread = g_thread_new(name, { data in
            let body = CallbackBox<@Sendable () -> Void>.from(data!).value
            Unmanaged<CallbackBox<@Sendable () -> Void>>.fromOpaque(data!).release()
            body()
            return nil
        }, box.retainedPointer)
        g_thread_unref(thread)
    }
}

extension DetachedThread {
    /// What a thread started by ``startOnAnotherCPU(name:_:)`` needs before its body runs.
    private final class Start: @unchecked Sendable {   // immutable; handed over once
        let name: String
        let allowed: cpu_set_t
        let body: @Sendable () -> Void
        init(name: String, allowed: cpu_set_t, body: @escaping @Sendable () -> Void) {
            self.name = name
            self.allowed = allowed
            self.body = body
        }
    }

    /// Like ``start(name:_:)``, with the new thread placed on a CPU other than the caller's when
    /// the process may use more than one: the kernel puts a new thread on its creator's CPU, where
    /// it waits behind the creator until a balancing pass moves one of them — measured at ~3 ms
    /// of the `gst-init` thread's start-up on a 2-core machine while the creator parsed the command
    /// line. The thread is created with the other CPUs as its affinity
    /// (`pthread_attr_setaffinity_np`) and gives itself every allowed CPU back first thing
    /// (`sched_setaffinity`), so that nothing it starts inherits the narrower set.
    /// **Thread:** any; `body` runs on the new thread (`pthread_create`, detached).
    package static func startOnAnotherCPU(name: String, _ body: @escaping @Sendable () -> Void) {
        let size = MemoryLayout<cpu_set_t>.size
        var allowed = cpu_set_t()
        guard sched_getaffinity(0, size, &allowed) == 0, CGStreamer_cpu_count(&allowed) > 1 else {
            return start(name: name, body)
        }
        var elsewhere = allowed
        CGStreamer_cpu_clear(sched_getcpu(), &elsewhere)
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        defer { pthread_attr_destroy(&attributes) }
        pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
        _ = pthread_attr_setaffinity_np(&attributes, size, &elsewhere)
        let start = Unmanaged.passRetained(Start(name: name, allowed: allowed, body: body))
        var thread = pthread_t()
        let created = pthread_create(&thread, &attributes, { raw in
            let start = Unmanaged<Start>.fromOpaque(raw!).takeRetainedValue()
            var allowed = start.allowed
            _ = sched_setaffinity(0, MemoryLayout<cpu_set_t>.size, &allowed)
            _ = pthread_setname_np(pthread_self(), start.name)
            start.body()
            return nil
        }, start.toOpaque())
        if created != 0 {
            start.release()
            DetachedThread.start(name: name, body)
        }
    }
}
