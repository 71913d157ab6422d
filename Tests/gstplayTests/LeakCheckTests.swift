import Foundation
import TestSupport
import XCTest

/// gstplay runs whose exit is checked by LeakSanitizer under `make test-asan` (elsewhere they
/// are ordinary runs). The other CLI tests start gstplay without the leak check there, because
/// the full malloc stacks the suppressions need make a real-time player too slow for them (see
/// ``GstplayProcess/childEnvironment(_:checkLeaks:)``); these runs wait for every step without
/// racing the clock. A leak makes the child print a LeakSanitizer report and exit with 23.
final class LeakCheckTests: XCTestCase {
    private let short = GstplayProcess.fixture("short-0.2s.mp4")

    private func assertNoLeakReport(_ child: GstplayProcess, status: Int32?, expected: Int32, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertFalse(child.stderr.contains("LeakSanitizer"), child.stderr, file: file, line: line)
        XCTAssertFalse(child.stderr.contains("AddressSanitizer"), child.stderr, file: file, line: line)
        XCTAssertEqual(status, expected, child.stderr, file: file, line: line)
    }

    /// Every console command, two loads, a stop and a quit in one process.
    func testConsoleSessionLeaksNothing() throws {
        let child = GstplayProcess(["--json", "--keep-open", short], environment: Self.leakCheckEnvironment, checkLeaks: true)
        try child.start()
        // Predicates get the output as arguments: reading `child.stdout` inside one would take the lock it holds.
        func count(_ text: String, in out: String) -> Int { out.components(separatedBy: text).count - 1 }
        XCTAssertTrue(child.waitForLine(containing: #""event":"eos""#, timeout: 60), child.stderr)
        var replies = 0
        func send(_ line: String) {
            child.send(line)
            replies += 1
            XCTAssertTrue(child.waitFor(timeout: 60) { out, _ in count(#""error":""#, in: out) >= replies }, "no reply to \(line)")
        }
        for command in ["status", "stats", "help", "volume 50", "mute", "mute off", "rate 1.5", "rate 0", "seek 0.1", "seek nan", "bogus",
                        #"{"command":["seek","50%"],"request_id":1}"#, "{oops"] { send(command) }
        let eos = count(#""event":"eos""#, in: child.stdout)
        send("play")
        XCTAssertTrue(child.waitFor(timeout: 60) { out, _ in count(#""event":"eos""#, in: out) > eos }, "replayed to the end")
        send("stop")
        XCTAssertTrue(child.waitForLine(containing: #""to":"idle""#, timeout: 60))
        send("load \(short)")
        XCTAssertTrue(child.waitFor(timeout: 60) { out, _ in count(#""event":"eos""#, in: out) > eos + 1 }, "the loaded item played")
        child.send("quit")
        child.closeInput()
        assertNoLeakReport(child, status: child.waitForExit(timeout: 120), expected: 0)
    }

    /// A failed item (the error path through the Backend and the reporter).
    func testFailedItemLeaksNothing() throws {
        let child = GstplayProcess(["Fixtures/does-not-exist.mp4"], input: .devNull, environment: Self.leakCheckEnvironment, checkLeaks: true)
        try child.start()
        assertNoLeakReport(child, status: child.waitForExit(timeout: 120), expected: 1)
    }

    /// An HTTP error (souphttpsrc, the network error path).
    func testHTTPErrorLeaksNothing() throws {
        let server = try HTTPTestServer()
        defer { server.stop() }
        let child = GstplayProcess([server.url("/status/404")], input: .devNull, environment: Self.leakCheckEnvironment, checkLeaks: true)
        try child.start()
        assertNoLeakReport(child, status: child.waitForExit(timeout: 120), expected: 1)
    }

    /// Under ASan: a leak exits with 23, not 1 (which also means "an item failed").
    private static var leakCheckEnvironment: [String: String] {
        var environment = ProcessInfo.processInfo.environment
        if GstplayProcess.underAddressSanitizer {
            environment["ASAN_OPTIONS"] = (environment["ASAN_OPTIONS"].map { $0 + ":" } ?? "") + "exitcode=23"
        }
        return environment
    }
}
