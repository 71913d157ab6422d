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
