import Foundation
import Synchronization

/// Values arriving on another thread (a delegate's, a reply's), and a wait for them: each
/// ``append(_:)`` wakes the waiters (`NSCondition`).
public final class Arrivals<Value: Sendable>: Sendable {
    private let values = Mutex<[Value]>([])
    private let condition = NSCondition()

    public init() {}

    /// Adds `value` and wakes the waiters; any thread.
    public func append(_ value: Value) {
        values.withLock { $0.append(value) }
        condition.lock(); condition.broadcast(); condition.unlock()
    }

    /// The values so far, in the order they arrived.
    public var all: [Value] { values.withLock { $0 } }

    /// Waits until `done` holds over the values; false after `timeout`.
    public func wait(timeout: TimeInterval = 10, until done: ([Value]) -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        condition.lock()
        defer { condition.unlock() }
        while !done(all) {
            if !condition.wait(until: deadline) { return done(all) }
        }
        return true
    }
}
