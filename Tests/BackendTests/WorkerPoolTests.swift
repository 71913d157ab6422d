import Foundation
import GLibSupport
import Glibc
import Synchronization
import XCTest

/// The player's worker for blocking calls (``WorkerPool``, a `GThreadPool` of one thread): work
/// runs off the caller's thread, in the order given, on one thread kept for the next task — not
/// on a thread per call as the live-window queries did (four new threads a second).
final class WorkerPoolTests: XCTestCase {
    func testTasksRunInOrderOnOneThreadOffTheCaller() {
        let worker = WorkerPool()
        let runs = Mutex<[(index: Int, thread: pthread_t)]>([])
        let done = expectation(description: "every task ran")
        let count = 40
        for index in 0..<count {
            worker.run {
                runs.withLock { $0.append((index, pthread_self())) }
                if index == count - 1 { done.fulfill() }
            }
        }
        wait(for: [done], timeout: 30)
        let seen = runs.withLock { $0 }
        XCTAssertEqual(seen.map(\.index), Array(0..<count), "in the order given, one at a time")
        XCTAssertEqual(Set(seen.map(\.thread)).count, 1, "one thread for every task: \(Set(seen.map(\.thread)))")
        XCTAssertNotEqual(seen.first?.thread, pthread_self(), "off the caller's thread")
    }

    func testQueuedTasksStillRunWhenTheWorkerIsReleased() {
        let ran = expectation(description: "the queued task ran")
        do {
            let worker = WorkerPool()
            worker.run { usleep(50_000) }
            worker.run { ran.fulfill() }
        }
        wait(for: [ran], timeout: 30)
    }

    /// What the caller wrote before `run` is what the task reads, and ThreadSanitizer can tell:
    /// GLib's queue orders them with a lock TSan does not see, so without the worker's own
    /// release/acquire pair `make test-tsan` reports this plain field as a race.
    func testWhatTheCallerWroteBeforeRunIsSeenByTheTaskWithoutARace() {
        final class Plain: @unchecked Sendable { var value = 0 }
        let worker = WorkerPool()
        for round in 1...20 {
            let plain = Plain()
            plain.value = round
            let read = expectation(description: "round \(round) read")
            worker.run {
                XCTAssertEqual(plain.value, round)
                read.fulfill()
            }
            wait(for: [read], timeout: 30)
        }
    }
}
