import CGStreamer
import Foundation
import GLibSupport
import Glibc
import Synchronization
import XCTest

/// ``DetachedThread/startOnAnotherCPU(name:_:)``: the body runs once, off the caller's thread,
/// on a thread with the given name, and with every CPU the process may use — the narrower set
/// it was created with (the CPUs other than the caller's) is given back before the body runs, so
/// nothing the body starts inherits it. Where it first ran is measured, not asserted
/// (docs/BENCHMARKS.md): under the suite's load the kernel may move it at once.
final class DetachedThreadPlacementTests: XCTestCase {
    private struct Seen: Sendable {
        let thread: pthread_t
        let name: String
        let allowedCPUs: Int32
    }

    private static func allowedCPUs() -> Int32 {
        var set = cpu_set_t()
        guard sched_getaffinity(0, MemoryLayout<cpu_set_t>.size, &set) == 0 else { return -1 }
        return CGStreamer_cpu_count(&set)
    }

    func testTheBodyRunsOnANamedThreadWithEveryAllowedCPU() {
        let seen = Mutex<[Seen]>([])
        let ran = expectation(description: "the body ran")
        DetachedThread.startOnAnotherCPU(name: "placed-test") {
            let name = (try? String(contentsOfFile: "/proc/thread-self/comm", encoding: .utf8))?
                .trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
            seen.withLock { $0.append(Seen(thread: pthread_self(), name: name, allowedCPUs: Self.allowedCPUs())) }
            ran.fulfill()
        }
        wait(for: [ran], timeout: 10)
        let runs = seen.withLock { $0 }
        XCTAssertEqual(runs.count, 1)
        guard let run = runs.first else { return }
        XCTAssertNotEqual(run.thread, pthread_self(), "off the caller's thread")
        XCTAssertEqual(run.name, "placed-test")
        XCTAssertEqual(run.allowedCPUs, Self.allowedCPUs(), "the thread has every CPU the caller may use")
    }
}
