@testable import BackendCast
import BackendCore
import Dispatch
import Foundation
import GLibSupport
import XCTest

/// A GLib loop thread of the tests' own (the player's ``MainLoopThread``), where the UPnP layer's
/// objects live as they do on a player's loop thread: made, called and released there.
final class CastTestLoop: @unchecked Sendable {
    let thread = MainLoopThread(name: "cast-test-loop")

    /// Runs `body` on the loop thread and returns its value.
    func sync<T>(_ body: @escaping () -> T) -> T {
        nonisolated(unsafe) var value: T?
        XCTAssertTrue(thread.invokeAndWait { value = body() })
        return value!
    }

    /// Makes a ``RendererDiscovery`` on the loop thread, recording its lists into `lists`, and
    /// starts it on `interfaces`.
    func startDiscovery(on interfaces: [String], recordingInto lists: RendererLists) -> RendererDiscovery {
        sync { () -> RendererDiscovery in
            let discovery = RendererDiscovery()
            discovery.onChange = { lists.record($0) }
            discovery.start(interfaces: interfaces)
            return discovery
        }
    }

    /// Starts `body` on the loop thread and waits (at most `timeout`) for it to call its
    /// completion; the value, or nil when it did not come in time.
    func wait<T>(timeout: TimeInterval = 10, _ body: @escaping (@escaping (T) -> Void) -> Void) -> T? {
        begin(body)(timeout)
    }

    /// Starts `body` on the loop thread; the returned function waits (at most the given seconds)
    /// for its completion's value, nil when it did not come in time. For a test that acts while
    /// the call is in flight.
    func begin<T>(_ body: @escaping (@escaping (T) -> Void) -> Void) -> (TimeInterval) -> T? {
        let done = DispatchSemaphore(value: 0)
        let box = ValueBox<T>()
        thread.invoke {
            body { result in
                box.value = result   // read after the semaphore, which orders the two threads
                done.signal()
            }
        }
        return { timeout in
            guard done.wait(timeout: .now() + timeout) == .success else { return nil }
            return box.value
        }
    }

    deinit { thread.quitAndJoin() }
}

/// One value handed from the loop thread to the waiting test thread (ordered by a semaphore).
private final class ValueBox<T>: @unchecked Sendable {
    var value: T?
}

/// Renderer lists reported by a discovery's `onChange`, readable from the test thread.
final class RendererLists: @unchecked Sendable {
    private let condition = NSCondition()
    private var lists: [[Renderer]] = []

    /// Call on the loop thread from `onChange`.
    func record(_ list: [Renderer]) {
        condition.lock()
        lists.append(list)
        condition.broadcast()
        condition.unlock()
    }

    /// The latest list.
    var latest: [Renderer] {
        condition.lock(); defer { condition.unlock() }
        return lists.last ?? []
    }

    /// How many lists were reported.
    var count: Int {
        condition.lock(); defer { condition.unlock() }
        return lists.count
    }

    /// Waits until the latest list satisfies `predicate` (woken by each report); that list, or nil after `timeout`.
    func wait(timeout: TimeInterval = 15, _ predicate: ([Renderer]) -> Bool) -> [Renderer]? {
        let deadline = Date().addingTimeInterval(timeout)
        condition.lock(); defer { condition.unlock() }
        while !predicate(lists.last ?? []) {
            if !condition.wait(until: deadline) { return predicate(lists.last ?? []) ? lists.last : nil }
        }
        return lists.last ?? []
    }
}
