import CGStreamer

extension TimerSource {
    /// A timer on the calling thread's default `GMainContext` (`g_main_context_get_thread_default`,
    /// `g_timeout_source_new` + `g_source_attach`): for GLib-based libraries that, like GUPnP, run on
    /// whatever context is thread-default where their objects are made (the player's loop thread).
    /// `body` runs on that context every `interval` until it returns false or the source is
    /// destroyed. Unlike ``FeatureContext/addTimer(every:_:)`` it does not deliver the player's
    /// events afterwards: a feature publishes from it through ``FeatureContext/runOnLoop(_:)``.
    /// **Thread:** the thread whose default context it is (create and destroy it there).
    package static func onThreadDefaultContext(every interval: Duration, _ body: @escaping () -> Bool) -> TimerSource {
        let box = CallbackBox<() -> Bool>(body)
        let source = CGStreamer_timeout_attach(g_main_context_get_thread_default(), interval.glibMilliseconds, { data in
            CallbackBox<() -> Bool>.from(data!).value() ? 1 : 0
        }, box.retainedPointer, callbackBoxRelease)!
        return TimerSource(source: source)
    }
}
