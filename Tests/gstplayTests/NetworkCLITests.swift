import Foundation
import TestSupport
import XCTest

/// From the command line: a silent live source is announced once and
/// bounded by `--network-timeout`; a refused connection is named in the error line.
final class NetworkCLITests: XCTestCase {
    func testASilentUDPSourceSaysOnceItWaitsAndFailsAfterTheNetworkTimeout() throws {
        let silent = try SilentUDPPort()
        defer { silent.close() }
        let started = Date()
        let run = try GstplayProcess.run(["--network-timeout", "2", silent.uri], timeout: 20)
        let elapsed = Date().timeIntervalSince(started)
        XCTAssertEqual(run.status, 1, run.stderr)
        let lines = run.stderr.split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.filter { $0.contains("waiting for the live source") }.count, 1, run.stderr)
        XCTAssertTrue(lines.contains("gstplay: error: \(silent.uri): the live source sent no data within 2 s"), run.stderr)
        XCTAssertLessThan(elapsed, 10)
    }

    func testASilentUDPSourceInJSONGetsOneWaitingEvent() throws {
        let silent = try SilentUDPPort()
        defer { silent.close() }
        let run = try GstplayProcess.run(["--json", "--network-timeout", "1", silent.uri], timeout: 20)
        XCTAssertEqual(run.status, 1, run.stderr)
        let events = run.stdout.split(separator: "\n").compactMap { jsonObject(String($0)) }
        let waiting = events.filter { $0["event"] as? String == "waiting" }
        XCTAssertEqual(waiting.count, 1, run.stdout)
        XCTAssertEqual(waiting.first?["source"] as? String, "live")
        XCTAssertEqual(waiting.first?["timeout"] as? Double, 1)
        let error = events.first { $0["event"] as? String == "error" }
        XCTAssertEqual(error?["cause"] as? String, "no-live-data", run.stdout)
    }

    func testARefusedConnectionIsNamedInTheErrorLine() throws {
        let port = try XCTUnwrap(LocalSockets.refusingTCPPort())
        let uri = "http://127.0.0.1:\(port)/clip.mp4"
        let run = try GstplayProcess.run(["--no-cache", uri], timeout: 20)
        XCTAssertEqual(run.status, 1, run.stderr)
        XCTAssertTrue(run.stderr.contains("gstplay: error: \(uri): the connection was refused (nothing listens at 127.0.0.1:\(port))"), run.stderr)
        XCTAssertFalse(run.stderr.contains("reconnecting"), run.stderr)
    }
}
