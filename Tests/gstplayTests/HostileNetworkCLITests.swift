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
    /// A `Content-Length` 1000 more than the body, the connection then closed or held silent:
    /// after the reload once (its own warning), the file that arrived plays to its end (the
    /// `eos` event near 4 s), then one warning with the byte counts, exit 0 (before: one error
    /// line, exit 1, nothing played).
    func testABodyShorterThanItsContentLengthPlaysWhatArrived() throws {
        let server = try HTTPTestServer()
        defer { server.stop() }
        for path in ["/raw/short-body-close/mp3-4s.mp3", "/raw/short-body/mp3-4s.mp3", "/raw/short-body-close/vp8-opus-4s.webm"] {
            let location = server.url(path)
            let size = path.hasSuffix(".mp3") ? 33482 : 88348
            let warning = "the server sent \(size) of the \(size + 1000) bytes it announced (Content-Length): played what arrived"
            let outcome = try run(path, ["--json", "--network-timeout", "2", "--no-cache", location], timeout: 90)
            assertSane(outcome)
            XCTAssertEqual(outcome.status, 0, "\(path): \(outcome.stderr)")
            XCTAssertEqual(outcome.errorLines, [], path)
            XCTAssertEqual(outcome.events("error").count, 0, path)
            XCTAssertEqual(outcome.events("warning").compactMap { $0["message"] as? String },
                           ["the server cannot resume the download (it ignores Range requests) — downloading it again from the start", warning], path)
            XCTAssertEqual(outcome.events("eos").count, 1, path)
            XCTAssertGreaterThan(outcome.events("eos").first?["position"] as? Double ?? 0, 3.5, "\(path): played to the end: \(outcome.events("eos"))")
        }
        // Text mode, the next item handed over gaplessly: the warning names the short item and
        // comes before the next one starts.
        let location = server.url("/raw/short-body-close/mp3-4s.mp3")
        let next = TestMedia.root.appendingPathComponent("Fixtures/mp3-4s.mp3").path
        let text = try run("text mode", ["--network-timeout", "2", "--no-cache", location, next], timeout: 60)
        assertSane(text)
        XCTAssertEqual(text.status, 0, text.stderr)
        XCTAssertEqual(text.errorLines, [])
        let warning = "gstplay: warning: \(location): the server sent 33482 of the 34482 bytes it announced (Content-Length): played what arrived"
        XCTAssertEqual(text.warningLines.count, 2, text.stderr)
        XCTAssertEqual(text.warningLines.filter { $0.contains("bytes it announced") }, [warning], text.stderr)
        let lines = text.stderrLines
        XCTAssertLessThan(lines.firstIndex(of: warning) ?? .max, lines.firstIndex { $0.hasPrefix("Now playing \(next)") } ?? -1, text.stderr)
    }
}
