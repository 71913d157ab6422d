import Backend
import Foundation
import Glibc
import ProcessProbe
import XCTest

/// A ``PlayerDelegate`` that records every event with a monotonic timestamp and the id of the
/// thread that delivered it, and lets a test wait for a condition over the history with a
/// timeout. Use it to test the delegate path (order, thread); for waits alone,
/// `Player.waitFor(where:timeout:)` needs no delegate.
public final class EventRecorder: PlayerDelegate, Sendable {
    /// One delivered event.
    public struct Record: Sendable {
        /// The event.
        public let event: PlayerEvent
        /// When it arrived (`systemUptime`, seconds).
        public let at: TimeInterval
        /// The kernel thread id (`ProcessProbe.currentThreadID`) of the thread that delivered it.
        public let threadID: pid_t
    }

    /// The history (a `ConditionBox`, not a `Mutex`: ThreadSanitizer sees its lock, docs/RELIABILITY.md §3).
    private let records = ConditionBox<[Record]>([])
    private let loopThread = ConditionBox<pid_t?>(nil)

    /// A recorder with an empty history.
    public init() {}

    /// Records the event (on whatever thread delivers it) and wakes the waiters.
    public func player(_ player: Player, didReceive event: PlayerEvent) {
        let record = Record(event: event, at: ProcessInfo.processInfo.systemUptime, threadID: ProcessProbe.currentThreadID)
        records.update { $0.append(record) }
    }

    /// Every record so far, in delivery order.
    public var all: [Record] { records.current }
    /// Every event so far, in delivery order.
    public var events: [PlayerEvent] { all.map(\.event) }
    /// How many events so far (a mark for ``waitForValue(_:timeout:after:file:line:_:)``).
    public var count: Int { records.withLock { $0.count } }

    /// The id of the player's loop thread, learned by `Player.forTesting` when it created the
    /// player (the one new `gstplay-loop` thread); nil when the player was made otherwise.
    public var loopThreadID: pid_t? { loopThread.current }

    /// Sets the loop thread's id (`Player.forTesting` does this).
    public func expectLoopThread(_ id: pid_t?) { loopThread.withLock { $0 = id } }

    /// Asserts that the loop thread is known, is neither the main thread nor the calling
    /// thread, and delivered every event recorded so far (at least one).
    public func assertDeliveredOnLoopThread(file: StaticString = #filePath, line: UInt = #line) {
        guard let loop = loopThreadID else { return XCTFail("the loop thread was not identified", file: file, line: line) }
        XCTAssertNotEqual(loop, getpid(), "the loop thread is not the main thread", file: file, line: line)
        XCTAssertNotEqual(loop, ProcessProbe.currentThreadID, "the loop thread is not the test's thread", file: file, line: line)
        let records = all
        XCTAssertFalse(records.isEmpty, "no events recorded", file: file, line: line)
        let strays = records.filter { $0.threadID != loop }
        XCTAssertTrue(strays.isEmpty, "\(strays.count) events arrived on other threads than the loop thread \(loop): "
                      + "\(strays.prefix(3).map { "\($0.event) on \($0.threadID)" })", file: file, line: line)
    }

    /// Waits until `predicate` holds over the events so far; fails the test on timeout.
    @discardableResult
    public func waitFor(_ what: String, timeout: TimeInterval = 10, file: StaticString = #filePath, line: UInt = #line,
                        _ predicate: ([PlayerEvent]) -> Bool) -> Bool {
        if holds(predicate, before: Date().addingTimeInterval(timeout)) { return true }
        XCTFail("timed out after \(timeout)s waiting for \(what); events: \(events.suffix(12))", file: file, line: line)
        return false
    }

    /// Whether `predicate` holds over the events by `deadline`, evaluated again after every new
    /// event. The predicate runs WITHOUT the condition's lock: it may wait for the player's loop
    /// thread (a getter), and that thread takes the lock to deliver an event (holding it there
    /// deadlocked, EventRecorderWaitTests). Only "no new event since the last look" is waited for
    /// under the lock; an event recorded in between is seen as a changed count.
    private func holds(_ predicate: ([PlayerEvent]) -> Bool, before deadline: Date) -> Bool {
        while true {
            let seen = count
            if predicate(events) { return true }
            if !records.wait(until: deadline, { $0.count != seen }) { return predicate(events) }
        }
    }

    /// True when `predicate` stays false over the events for the whole of `seconds` (woken on
    /// every event, so it returns false as soon as it becomes true): for "nothing happened" checks.
    public func staysFalse(for seconds: TimeInterval, _ predicate: ([PlayerEvent]) -> Bool) -> Bool {
        !holds(predicate, before: Date().addingTimeInterval(seconds))
    }

    /// Waits for an event after the first `index` ones for which `match` returns a value, and returns it.
    public func waitForValue<T>(_ what: String, timeout: TimeInterval = 10, after index: Int = 0, file: StaticString = #filePath, line: UInt = #line,
                                _ match: (PlayerEvent) -> T?) -> T? {
        var found: T?
        waitFor(what, timeout: timeout, file: file, line: line) { events in
            found = events.dropFirst(index).lazy.compactMap(match).first
            return found != nil
        }
        return found
    }

    /// The `to` states of every state change so far.
    public func states() -> [PlayerState] {
        events.compactMap { if case .stateChanged(_, let to) = $0 { return to } else { return nil } }
    }

    /// A predicate for ``waitFor(_:timeout:file:line:_:)``: some state change went to `state`.
    public func reachedState(_ state: PlayerState) -> ([PlayerEvent]) -> Bool {
        { events in events.contains { if case .stateChanged(_, state) = $0 { return true } else { return false } } }
    }
}
