import CGStreamer
import GLibSupport
// `addTimer` and `watchInput` return GLibSupport's `TimerSource`: re-exported (that type only) so an
// embedder's feature can name it with `import BackendCore` (or `import Backend`) alone.
@_exported import class GLibSupport.TimerSource

/// Timers, watches and signal handlers on the player's loop thread (``FeatureContext/loop``;
/// a handle from ``FeatureContext/confine(_:)`` reaches the thread from others). **Thread:** loop thread.
public struct FeatureLoop {
    unowned let context: FeatureContext
    private var engine: Engine { context.engine }

    /// Remembers a signal handler the feature connected on `instance` (`g_signal_connect`): the
    /// core disconnects it at teardown, before the pipeline is released.
    public func track(handler id: gulong, on instance: UnsafeMutableRawPointer) { engine.pipeline?.track(handler: id, on: instance) }

    /// A timer on the loop thread (`g_timeout_source_new`): `body` runs every `interval` until it
    /// returns false or the returned source is destroyed. The feature destroys it by
    /// ``PlayerFeature/resetForNewMedia(uri:)``/``PlayerFeature/teardown()`` at the latest.
    public func addTimer(every interval: Duration, _ body: @escaping () -> Bool) -> TimerSource {
        engine.loop.addTimer(every: interval, body)
    }

    /// Watches a file descriptor on the loop thread (`g_unix_fd_source_new`): `body` runs there
    /// whenever `fd` is readable, until it returns false or the returned source is destroyed
    /// (an X connection's socket, say). The feature destroys it by ``PlayerFeature/teardown()``
    /// at the latest, before it closes `fd`.
    public func watchInput(on fd: Int32, _ body: @escaping () -> Bool) -> TimerSource {
        engine.loop.addReadWatch(fileDescriptor: fd, body)
    }

    /// Runs `work` off the loop thread on the player's one worker (a `GThreadPool` of one thread,
    /// tasks in the order given, live-window seeks among them), for a call that may block (a
    /// query an adaptive demuxer answers under its playlist lock); come back with
    /// a handle (``FeatureContext/confine(_:)``, ``LoopConfined/runOnLoop(_:)``). **Thread:** loop
    /// thread (`work` runs on the worker).
    public func runOffLoop(_ work: @escaping @Sendable () -> Void) { engine.worker.run(work) }
}
