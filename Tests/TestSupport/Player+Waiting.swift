import Backend
import XCTest

/// Why a wait on ``Player/events`` ended without the event.
public struct EventWaitError: Error, CustomStringConvertible {
    /// What was awaited, the timeout, and the last events seen.
    public let description: String
}

extension Player {
    /// Waits for the first event a new ``Player/events`` stream delivers for which `match`
    /// returns a value, and returns that value. `action` runs after the stream was made, so an
    /// event it causes cannot be missed: `try await player.waitForValue({ $0.seekDone }) { player.seek(to: x) }`.
    /// The stream gets the events raised from then on (the very first listener of a player also
    /// gets those raised before it, from `initialized` on).
    ///
    /// One stream per call, ended when the wait ends. Throws ``EventWaitError`` after `timeout`
    /// or when the stream ends (shutdown) first.
    public func waitForValue<T: Sendable>(_ what: String = "an event", timeout: Duration = .seconds(10),
                                          _ match: @escaping @Sendable (PlayerEvent) -> T?,
                                          after action: () -> Void = {}) async throws -> T {
        let stream = events
        action()
        return try await withThrowingTaskGroup(of: T.self) { group in
            group.addTask {
                var seen: [PlayerEvent] = []
                for await event in stream {
                    if let value = match(event) { return value }
                    seen = Array((seen + [event]).suffix(8))
                }
                throw EventWaitError(description: "the event stream ended while waiting for \(what); last events: \(seen)")
            }
            group.addTask {
                try await Task.sleep(for: timeout)
                throw EventWaitError(description: "timed out after \(timeout) waiting for \(what)")
            }
            defer { group.cancelAll() }
            return try await group.next()!
        }
    }

    /// Waits for the first event a new ``Player/events`` stream delivers (then `action` runs)
    /// that satisfies `predicate`, and returns it. See ``waitForValue(_:timeout:_:after:)``.
    @discardableResult
    public func waitFor(_ what: String = "an event", where predicate: @escaping @Sendable (PlayerEvent) -> Bool,
                        timeout: Duration = .seconds(10), after action: () -> Void = {}) async throws -> PlayerEvent {
        try await waitForValue(what, timeout: timeout, { predicate($0) ? $0 : nil }, after: action)
    }

    /// Loads `location` with ``Player/loadAsync(_:startAt:)`` and asserts that the load throws
    /// an error of `kind`.
    public func assertLoadFails(_ location: String, kind: PlayerError.Kind, file: StaticString = #filePath, line: UInt = #line) async {
        do {
            try await loadAsync(location)
            XCTFail("'\(location)' loaded", file: file, line: line)
        } catch {
            XCTAssertEqual(error.kind, kind, "\(error)", file: file, line: line)
        }
    }
}

extension PlayerEvent {
    /// True for `.endOfStream`.
    public var isEndOfStream: Bool { if case .endOfStream = self { return true } else { return false } }
    /// The error of an `.error` event.
    public var error: PlayerError? { if case .error(let e) = self { return e } else { return nil } }
    /// The landed position of a `.seekDone` event.
    public var seekDone: MediaTime? { if case .seekDone(let t) = self { return t } else { return nil } }
    /// The position of a `.position` tick.
    public var position: MediaTime? { if case .position(let t, _) = self { return t } else { return nil } }
    /// The new state of a `.stateChanged` event.
    public var newState: PlayerState? { if case .stateChanged(_, let to) = self { return to } else { return nil } }
}
