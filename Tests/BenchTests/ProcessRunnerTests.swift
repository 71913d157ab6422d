import Foundation
@testable import gstplay_bench
import TestSupport
import XCTest

/// The bench harness's process runner: what made it count 4–6 of
/// 126 QoE player processes as hung. Each child inherited the write end of every other
/// server's stdin pipe the harness had open when it was spawned, so a cell's `BenchServer.stop()`
/// (close stdin, wait for the exit) waited for another cell's players to end; meanwhile the
/// timeout killer of a player that had long exited, not yet reaped, marked it "timed out".
final class ProcessRunnerTests: XCTestCase {
    private var runner: ProcessRunner!

    override func setUpWithError() throws { runner = try ProcessRunner(ownExecutable: "/nonexistent") }
    override func tearDown() { runner.cleanUp() }

    /// A pipe whose write end the harness closes must read end-of-file at once, even while a
    /// child spawned before the close still runs: the child holds no descriptor of the harness
    /// but its standard ones.
    func testAChildHoldsNoDescriptorOfTheHarness() throws {
        var ends: [Int32] = [0, 0]
        XCTAssertEqual(pipe(&ends), 0)   // no O_CLOEXEC, like Foundation's Pipe() and many libraries' descriptors
        defer { close(ends[0]) }
        guard case .success(let child) = runner.spawn(ProcessSpec(executable: "/bin/sleep", arguments: ["3"], timeoutSeconds: 10)) else {
            return XCTFail("sleep did not start")
        }
        close(ends[1])
        var poll = pollfd(fd: ends[0], events: Int16(POLLIN), revents: 0)
        let ready = Glibc.poll(&poll, 1, 1000)
        var byte: UInt8 = 0
        let readCount = ready == 1 ? read(ends[0], &byte, 1) : -1
        XCTAssertEqual(readCount, 0, "no end-of-file within 1 s: the child holds the pipe's write end")
        child.send(SIGKILL)
        _ = child.wait()
    }

    /// A child that exited on its own before its timeout, reaped only after the timeout passed
    /// (the harness was waiting for another child), ended as it ended: not "timed out".
    func testAChildThatExitedBeforeItsTimeoutIsNotCountedAsTimedOut() throws {
        guard case .success(let child) = runner.spawn(ProcessSpec(executable: "/bin/sh", arguments: ["-c", "exit 0"], timeoutSeconds: 0.3)) else {
            return XCTFail("sh did not start")
        }
        Thread.sleep(forTimeInterval: 0.8)   // past the timeout: the killer has run by now
        let result = child.wait()
        XCTAssertEqual(result.termination, .exited(0), "\(result.failureReason ?? "")")
    }

    /// A child that really outlives its timeout is still killed and counted as timed out.
    func testAChildThatOutlivesItsTimeoutIsKilled() throws {
        let started = ContinuousClock.now
        let result = runner.run(ProcessSpec(executable: "/bin/sleep", arguments: ["20"], timeoutSeconds: 0.5))
        XCTAssertEqual(result.termination, .timedOut(0.5))
        XCTAssertLessThan(ContinuousClock.now - started, .seconds(5))
    }

    /// A trace-shaped server's `stop()` returns promptly while a player spawned after it (in
    /// another cell) still runs: it is what the QoE cell waits on before it reaps its next player.
    func testAServerStopsWhileAnotherCellsChildRuns() throws {
        let script = TestMedia.root.appendingPathComponent("Tests/TestSupport/http_test_server.py").path
        let server = try BenchServer(script: script, arguments: [])
        guard case .success(let child) = runner.spawn(ProcessSpec(executable: "/bin/sleep", arguments: ["5"], timeoutSeconds: 10)) else {
            return XCTFail("sleep did not start")
        }
        let started = ContinuousClock.now
        server.stop()
        let took = ContinuousClock.now - started
        child.send(SIGKILL)
        _ = child.wait()
        XCTAssertLessThan(took, .seconds(2), "the server's stop waited for an unrelated child")
    }
}
