import Foundation

/// Values arriving on another thread (a delegate's, a reply's), and a wait for them: each
/// ``append(_:)`` wakes the waiters (a ``ConditionBox``: ThreadSanitizer sees its lock).
public final class Arrivals<Value: Sendable>: Sendable {
    private let values = ConditionBox<[Value]>([])

    public init() {}

    /// Adds `value` and wakes the waiters; any thread.
    public func append(_ value: Value) {
        values.update { $0.append(value) }
    }

    /// The values so far, in the order they arrived.
    public var all: [Value] { values.current }

    /// Waits until `done` holds over the values; false after `timeout`.
    public func wait(timeout: TimeInterval = 10, until done: ([Value]) -> Bool) -> Bool {
        values.wait(until: Date().addingTimeInterval(timeout), done)
    }
}
