@testable import Backend
import Foundation
import Synchronization
import XCTest

/// Records every event a player delivers (on its loop thread) with a monotonic timestamp,
/// and lets a test wait for a condition with a timeout.
final class EventRecorder: PlayerDelegate, Sendable {
    struct Record: Sendable {
        let event: PlayerEvent
        let at: TimeInterval
        let onLoopThread: Bool
    }

    private let records = Mutex<[Record]>([])
    private let condition = NSCondition()

    func player(_ player: Player, didReceive event: PlayerEvent) {
        let record = Record(event: event, at: ProcessInfo.processInfo.systemUptime,
                            onLoopThread: Thread.current.name == "gstplay-loop" || !Thread.isMainThread)
        records.withLock { $0.append(record) }
        condition.lock(); condition.broadcast(); condition.unlock()
    }

    var all: [Record] { records.withLock { $0 } }
    var events: [PlayerEvent] { all.map(\.event) }

    /// Waits until `predicate` holds over the events so far; fails the test on timeout.
    @discardableResult
    func waitFor(_ what: String, timeout: TimeInterval = 10, file: StaticString = #filePath, line: UInt = #line,
                 _ predicate: ([PlayerEvent]) -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        condition.lock()
        defer { condition.unlock() }
        while !predicate(events) {
            if !condition.wait(until: deadline) {
                if predicate(events) { return true }
                XCTFail("timed out after \(timeout)s waiting for \(what); events: \(events.suffix(12))", file: file, line: line)
                return false
            }
        }
        return true
    }

    /// Waits for an event matching `match`, returning what it extracts.
    func waitForValue<T>(_ what: String, timeout: TimeInterval = 10, after index: Int = 0, file: StaticString = #filePath, line: UInt = #line,
                         _ match: (PlayerEvent) -> T?) -> T? {
        var found: T?
        waitFor(what, timeout: timeout, file: file, line: line) { events in
            found = events.dropFirst(index).lazy.compactMap(match).first
            return found != nil
        }
        return found
    }

    func states() -> [PlayerState] {
        events.compactMap { if case .stateChanged(_, let to) = $0 { return to } else { return nil } }
    }

    func reachedState(_ state: PlayerState) -> ([PlayerEvent]) -> Bool {
        { events in events.contains { if case .stateChanged(_, state) = $0 { return true } else { return false } } }
    }

    var count: Int { records.withLock { $0.count } }
}

extension PlayerEvent {
    var isEndOfStream: Bool { if case .endOfStream = self { return true } else { return false } }
    var error: PlayerError? { if case .error(let e) = self { return e } else { return nil } }
    var seekDone: MediaTime? { if case .seekDone(let t) = self { return t } else { return nil } }
    var position: MediaTime? { if case .position(let t, _) = self { return t } else { return nil } }
}
