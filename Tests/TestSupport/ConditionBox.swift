import Foundation

/// A value shared between threads, guarded by one `NSCondition`, with a wait for it to change.
/// The tests' helpers use it instead of Swift's `Synchronization.Mutex`: on Linux `Mutex` locks
/// through a futex in the uninstrumented Swift runtime, so ThreadSanitizer does not see it and
/// reports two `withLock` bodies as a race (docs/RELIABILITY.md §3); `NSCondition` is a pthread
/// mutex, which it sees, so a real race on the value is still reported. Any thread.
public final class ConditionBox<Value: Sendable>: @unchecked Sendable {
    private let condition = NSCondition()
    /// Guarded by `condition`.
    private var value: Value

    /// A box holding `value`.
    public init(_ value: Value) { self.value = value }

    /// Runs `body` on the value under the lock (`body` must not wait for another thread that
    /// takes this lock).
    public func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        condition.lock()
        defer { condition.unlock() }
        return try body(&value)
    }

    /// Like ``withLock(_:)``, then wakes every thread in ``wait(until:_:)``.
    public func update<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        condition.lock()
        defer { condition.broadcast(); condition.unlock() }
        return try body(&value)
    }

    /// A copy of the value.
    public var current: Value { withLock { $0 } }

    /// Waits until `done` holds over the value (evaluated under the lock, again after every
    /// ``update(_:)``) or `deadline` passes; returns whether it held.
    public func wait(until deadline: Date, _ done: (Value) -> Bool) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        while !done(value) {
            if !condition.wait(until: deadline) { return done(value) }
        }
        return true
    }
}
