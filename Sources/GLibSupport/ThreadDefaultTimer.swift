import CGStreamer

extension TimerSource {
    /// A timer on the calling thread's default `GMainContext` (`g_main_context_get_thread_default`,
    /// `g_timeout_source_new` + `g_source_attach`): for GLib-based libraries that, like GUPnP, run on
    /// whatever context is thread-default where their objects are made (the player's loop thread).
    /// `body` runs on that context every `interval` until it returns false or the source is
    /// destroyed. Unlike `FeatureContext.loop.addTimer(every:_:)` it does not deliver the player's
    /// events afterwards: a feature publishes from it through `FeatureContext.runOnLoop(_:)`.
    /// **Thread:** the thread whose default context it is (create and destroy it there).
    package static func onThreadDefaultContext(every interval: Duration, _ body: @escaping () -> Bool) -> TimerSource {
        let box = CallbackBox<() -> Bool>(body)
        let source = CGStreamer_timeout_attach(g_main_context_get_thread_default(), interval.glibMilliseconds, { data in
            CallbackBox<() -> Bool>.from(data!).value() ? 1 : 0
        }, box.retainedPointer, callbackBoxRelease)!
        return TimerSource(source: source)
    }
}

/// Runs `work` once, soon, on the calling thread's default `GMainContext` (`g_idle_source_new` +
/// `g_source_attach`; the context owns the source until it has run): for a completion that must
/// not run inside the call that asked for it. Not a player handler (see
/// ``TimerSource/onThreadDefaultContext(every:_:)``). **Thread:** the thread whose default context it is.
package func runSoonOnThreadDefaultContext(_ work: @escaping () -> Void) {
    let box = CallbackBox<() -> Void>(work)
    _ = CGStreamer_idle_attach(g_main_context_get_thread_default(), G_PRIORITY_DEFAULT, { data in
        CallbackBox<() -> Void>.from(data!).value()
        return 0 // G_SOURCE_REMOVE
    }, box.retainedPointer, callbackBoxRelease)
}
