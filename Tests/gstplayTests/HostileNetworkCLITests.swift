import Foundation
import TestSupport
import XCTest

/// The CLI's bad-input corpus (``CLICorpus``, docs/RELIABILITY.md), network: a real local server
/// with faults (the cases run side by side) and one that stalls.
final class HostileNetworkCLITests: XCTestCase, CLICorpus {
    func testNetworkFaults() throws {
        let server = try HTTPTestServer()
        defer { server.stop() }
        struct Running { let name: String; let location: String; let child: GstplayProcess; let started: Date; let timeout: TimeInterval }
        func start(_ name: String, _ path: String, json: Bool = false, timeout: TimeInterval = 30) throws -> Running {
            let location = server.url(path)
            return Running(name: name, location: location, child: try launch((json ? ["--json"] : []) + [location], input: .devNull),
                           started: Date(), timeout: timeout)
        }
        let slow = try start("HTTP slow but steady", "/file/vp8-opus-4s.webm?rate=14000&chunk=2048", json: true, timeout: 45)
        let notFound = try start("HTTP 404", "/status/404")
        let serverError = try start("HTTP 500", "/status/500")
        let redirects = try start("HTTP redirect loop", "/redirect-loop")
        let reset = try start("HTTP connection reset mid-body", "/reset/vp8-opus-4s.webm?after=30000&key=\(UUID().uuidString)")
        func outcome(_ running: Running) -> CorpusOutcome { finish(running.name, running.child, started: running.started, timeout: running.timeout) }

        assertOneItemError(outcome(notFound), input: notFound.location, ["Not Found (HTTP 404)"])
        assertOneItemError(outcome(serverError), input: serverError.location, ["Internal Server Error (HTTP 500)"])
        assertOneItemError(outcome(redirects), input: redirects.location, ["(HTTP 302)"])

        let resumed = outcome(reset)
        assertSane(resumed)
        XCTAssertEqual(resumed.status, 0, "a reset on a Range-capable server is resumed: \(resumed.stderr)")
        XCTAssertEqual(resumed.errorLines, [])

        let buffered = outcome(slow)
        assertSane(buffered)
        XCTAssertEqual(buffered.status, 0, buffered.stderr)
        let levels = buffered.events("buffering").compactMap { $0["percent"] as? Int }
        XCTAssertTrue(levels.contains { $0 < 100 } && levels.contains(100), "buffering shows: \(levels)")
        XCTAssertTrue(buffered.events("state").contains { $0["to"] as? String == "buffering" })
        XCTAssertEqual(buffered.events("eos").count, 1)
    }

    /// A server that goes silent mid-body: with `--network-timeout 1` the read times out, the
    /// Backend reconnects once, times out again and the item fails with one error line.
    func testStalledServer() throws {
        let server = try HTTPTestServer()
        defer { server.stop() }
        let location = server.url("/stall/h264-aac-10s.mp4?after=40000")
        let started = Date()
        let outcome = try run("HTTP server stalls", ["--network-timeout", "1", "--no-cache", location], timeout: 60)
        XCTAssertLessThan(Date().timeIntervalSince(started), 30, "two 1 s timeouts, not the 15 s default")
        assertOneItemError(outcome, input: location, ["the server sent no data within the network timeout, or the connection was lost"])
        XCTAssertEqual(outcome.warningLines.filter { $0.contains("reconnecting once") }.count, 1, "retried once: \(outcome.stderr)")
    }

    /// Answers that are not HTTP: one error line saying so, exit 1, no reload, and none of
    /// libsoup's `GLib-GObject-WARNING … 'content-length'` lines (two per request for `-5`).
    func testAnswersThatAreNotHTTPEndWithOneLineAndNoGLibWarning() throws {
        let server = try HTTPTestServer()
        defer { server.stop() }
        let cases = [("/raw/negative-length/mp3-4s.mp3", "Content-Length '-5' is not a byte count"),
                     ("/raw/http09/mp3-4s.mp3", "it does not begin with an HTTP status line")]
        for (path, reason) in cases {
            let location = server.url(path)
            let outcome = try run(path, ["--network-timeout", "2", "--no-cache", location], timeout: 60)
            assertOneItemError(outcome, input: location, ["the server's answer is not valid HTTP (\(reason)"])
            XCTAssertFalse(outcome.stderr.contains("GLib-GObject"), outcome.stderr)
            XCTAssertEqual(outcome.warningLines.filter { $0.contains("reconnecting") }, [], outcome.stderr)
        }
    }
}
