import GLibSupport
/// A value that belongs to one player's loop thread, carried across threads as a `Sendable` handle.
///
/// The engine, the ``FeatureContext`` and every ``PlayerFeature`` live on the loop thread: every
/// call into them runs there, one at a time, so their state needs no lock — and they are not
/// `Sendable`. Another thread that must reach one (``Player`` on the caller's thread, a streaming
/// thread's signal handler, a worker's answer) carries this handle instead: it opens only on the
/// loop thread (``value`` checks it), and ``runOnLoop(_:)`` takes the work there. This is the
/// one place the confinement is stated: its unchecked conformance says that the loop thread is
/// the only one that ever touches the value, and the compiler checks everything else — the
/// types it carries are not `Sendable`, so no other path hands them to another thread.
///
/// Made by the core (``Player`` for its engine and features) or by a feature for itself
/// (``FeatureContext/confine(_:)``, which holds it weakly so a handle kept by a signal handler
/// does not keep the feature alive).
///
/// **Thread:** any, except ``value`` (the loop thread only).
public struct LoopConfined<Value>: @unchecked Sendable {
    /// Reads the value: strongly held, or through a weak reference (``FeatureContext/confine(_:)``).
    private let read: () -> Value
    private let loop: MainLoopThread

    /// Holds `value` strongly for `loop`'s thread. The value must not be used elsewhere after this
    /// (it is handed over: ``Player`` makes its engine on the loop thread and its features before).
    package init(_ value: Value, on loop: MainLoopThread) {
        self.read = { value }
        self.loop = loop
    }

    /// Holds `object` weakly for `loop`'s thread: ``value`` is nil once it is gone.
    package init<Object: AnyObject>(weak object: Object, on loop: MainLoopThread) where Value == Object? {
        self.read = { [weak object] in object }
        self.loop = loop
    }

    /// The value. **Thread:** the loop thread only (a precondition failure elsewhere).
    public var value: Value {
        precondition(loop.isOnLoopThread, "a loop-confined value used off its loop thread")
        return read()
    }

    /// True on the value's loop thread, where ``value`` may be read.
    public var isOnLoopThread: Bool { loop.isOnLoopThread }

    /// Queues `work` on the loop thread with the value (never inline, like every command), after
    /// the work queued before it. False, and `work` never runs, once the loop has quit.
    /// **Thread:** any.
    @discardableResult
    public func runOnLoop(_ work: @escaping @Sendable (Value) -> Void) -> Bool {
        loop.invoke { [read] in work(read()) }
    }

    /// Runs `work` on the loop thread with the value and waits for it (`MainLoopThread.invokeAndWait(_:)`):
    /// false, without running it, on the loop thread itself and once the loop has quit. `work`
    /// need not be `Sendable`: the caller's thread waits while it runs.
    @discardableResult
    package func runOnLoopAndWait(_ work: @escaping (Value) -> Void) -> Bool {
        loop.invokeAndWait { [read] in work(read()) }
    }
}
