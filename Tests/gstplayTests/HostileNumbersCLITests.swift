import Foundation
import Glibc
import TestSupport
import XCTest

/// Numbers and bursts from outside that killed or hung the player (docs/RELIABILITY.md, "Hostile
/// numbers and bursts"): numbers beyond 2^63 on the mpv socket (a Double→Int trap), rates too
/// close to 0 from every door (GStreamer threads crashed), a seek that never lands (the
/// dispatcher waited for it), and a burst of ~1000 mixed loads (playbin deadlocked the loop
/// thread). Each case runs the built gstplay against real clients.
final class HostileNumbersCLITests: XCTestCase, CLICorpus {
    private static let webm = GstplayProcess.fixture("vp8-opus-4s.webm")

    /// `1` followed by 299 zeros after the point: 1e-300, which passes a plain number parser.
    private static let tinyRate = "0." + String(repeating: "0", count: 299) + "1"

    /// gstplay `--json --input-ipc-server PATH` on the 10 s clip, playing, with one connected client.
    private func socketSession(fixture: String = "h264-aac-10s.mp4") throws -> (GstplayProcess, UnixSocketClient, path: String) {
        let path = ControlSocketTests.socketPath()
        let child = try ControlSocketTests.start(path, fixture: fixture)
        let client = try UnixSocketClient(path: path, timeout: 30)
        XCTAssertNotNil(client.waitForObject { $0["event"] as? String == "hello" }, child.stderr)
        XCTAssertTrue(child.waitForLine(containing: #""to":"playing""#), child.stdout)
        return (child, client, path)
    }

    /// Sends `command` (a JSON array) with `id` and returns the reply's `error`.
    private func ask(_ client: UnixSocketClient, _ command: String, id: Int, timeout: TimeInterval = 30) -> String? {
        client.send(#"{"command": \#(command), "request_id": \#(id)}"#)
        return client.reply(to: id, timeout: timeout)?["error"] as? String
    }

    // MARK: Numbers beyond 2^63 on the mpv socket

    /// Each of these trapped (SIGILL: `Int(_:)` on a Double ≥ 2^63) before; now each is mpv's
    /// `invalid parameter`, and the player goes on answering and quits with 0.
    func testNumbersBeyondIntegersOnTheMpvSocketAreInvalidParameters() throws {
        let (child, client, _) = try socketSession()
        defer { stop(child) }
        let requests = [
            #"["set_property", "playlist-pos", 1e19]"#, #"["set_property", "chapter", 1e19]"#,
            #"["set_property", "aid", 1e19]"#, #"["set_property", "sid", 1e19]"#, #"["set_property", "vid", 1e19]"#,
            #"["set_property", "playlist-pos", -1e19]"#, #"["set_property", "aid", 1e300]"#,
            #"["set_property_string", "playlist-pos", "1e19"]"#, #"["set_property_string", "chapter", "-1e19"]"#,
            #"["set", "playlist-pos", 1e19]"#, #"["set", "vid", "9223372036854775808"]"#,
            #"["observe_property", 1e19, "volume"]"#, #"["observe_property_string", -1e19, "pause"]"#,
            #"["unobserve_property", -1e19]"#, #"["unobserve_property", 1.5]"#,
            #"["quit", 1e19]"#, #"["quit", -1]"#,
        ]
        for (index, command) in requests.enumerated() {
            XCTAssertEqual(ask(client, command, id: index + 1), "invalid parameter", command)
        }
        XCTAssertNil(child.process.isRunning ? nil : "exited", "the player is alive after the numbers:\n\(child.stderr)")
        XCTAssertEqual(ask(client, #"["get_property", "pause"]"#, id: 100), "success")
        XCTAssertEqual(ask(client, #"["set_property", "playlist-pos", 0]"#, id: 101), "success", "a whole number in range still works")
        XCTAssertEqual(ask(client, #"["observe_property", 9007199254740993, "volume"]"#, id: 102), "success",
                       "an integer id beyond 2^53 is exact and kept")
        XCTAssertEqual(ask(client, #"["quit", 0]"#, id: 103), "success")
        XCTAssertEqual(child.waitForExit(timeout: 30), 0, child.stderr)
        XCTAssertFalse(child.stderr.contains("Fatal error") || child.stderr.contains("Program crashed"), child.stderr)
    }

    // MARK: Rates too close to 0

    /// The console: `rate 0.<299 zeros>1` (1e-300) and `rate 0.0000000001` crashed GStreamer's
    /// threads within seconds (SIGSEGV, heap corruption); now one error line each, and playing goes on.
    func testRatesTooCloseToZeroAreRefusedOnTheConsole() throws {
        for (text, shown) in [(Self.tinyRate, "1e-300"), ("0.0000000001", "1e-10"), ("-0.009", "-0.009")] {
            let outcome = try console("rate \(text.prefix(20))…", send: [Data("rate \(text)\nstatus\n".utf8)]) { out, err in
                self.errorLine(err) && out.contains(" rate=")
            }
            assertOneConsoleError(outcome, "rate \(shown) is too close to 0 (the slowest rate is 0.01 either way)")
            XCTAssertTrue(outcome.stdout.contains("rate=1 "), "the rate stays 1: \(outcome.stdout)")
        }
    }

    /// The socket: mpv's `speed` (5e-324, the smallest Double) and gstplay's `rate` command are
    /// refused; `speed` stays 1 and the player is alive 3 s later (it crashed within 3 s).
    func testRatesTooCloseToZeroAreRefusedOnTheSocket() throws {
        let (child, client, _) = try socketSession()
        defer { stop(child) }
        XCTAssertEqual(ask(client, #"["set_property", "speed", 5e-324]"#, id: 1), "error running command")
        XCTAssertEqual(ask(client, #"["set_property_string", "speed", "1e-300"]"#, id: 2), "error running command")
        XCTAssertEqual(ask(client, #"["add", "speed", -0.995]"#, id: 3), "error running command")
        XCTAssertEqual(ask(client, #"["rate", "\#(Self.tinyRate)"]"#, id: 4),
                       "rate 1e-300 is too close to 0 (the slowest rate is 0.01 either way)")
        let playedTo = (child.jsonLines.last { $0["event"] as? String == "position" }?["position"] as? Double) ?? 0
        XCTAssertNotNil(child.waitForJSON(timeout: 20) { $0["event"] as? String == "position" && ($0["position"] as? Double ?? 0) >= playedTo + 2 },
                        "playback goes on at the old rate")
        client.send(#"{"command": ["get_property", "speed"], "request_id": 5}"#)
        XCTAssertEqual(client.reply(to: 5)?["data"] as? Double, 1)
        XCTAssertEqual(ask(client, #"["quit", 0]"#, id: 6), "success")
        XCTAssertEqual(child.waitForExit(timeout: 30), 0, child.stderr)
        assertNoCrashMarkers(child.stderr)
    }

    /// The slowest rate either way plays: `rate 0.01` and `rate -0.01` are applied (their `rate`
    /// events), the clip keeps answering, and nothing on stderr is a GStreamer critical.
    func testTheSlowestRatesPlayCleanly() throws {
        let child = try launch(["--json", GstplayProcess.fixture("h264-aac-10s.mp4")])
        defer { stop(child) }
        XCTAssertTrue(child.waitForLine(containing: #""to":"playing""#), child.stdout)
        // From the middle: played backwards from the very start, the clip would end at once (and
        // the player with it) before the status below could be asked.
        child.send("seek 5")
        XCTAssertNotNil(child.waitForJSON { $0["event"] as? String == "seek-done" }, child.stdout)
        for rate in ["0.01", "-0.01", "0.01"] {
            child.send("rate \(rate)")
            XCTAssertNotNil(child.waitForJSON { $0["event"] as? String == "rate" && ($0["rate"] as? Double).map { String($0) } == rate }, child.stdout)
            let mark = child.stdoutLines.count
            child.send("status")
            XCTAssertNotNil(child.waitForJSON(after: mark) { ($0["data"] as? [String: Any])?["rate"] as? Double == Double(rate) }, child.stdout)
        }
        child.send("quit")
        XCTAssertEqual(child.waitForExit(timeout: 30), 0, child.stderr)
        assertNoCrashMarkers(child.stderr)
    }

    /// The web remote's command endpoint: the tiny rate is a 400 with the same message.
    func testATinyRateFromTheWebRemoteIsRefused() throws {
        let session = try RemoteSession(["--remote=0", "--loop", Self.webm])
        defer { session.stop() }
        XCTAssertTrue(session.child.waitForLine(containing: #""to":"playing""#), session.child.stdout)
        let refused = session.client(["http", "POST", session.base + "/api/command", "--token", session.token,
                                      "--body", "rate \(Self.tinyRate)"]).json
        XCTAssertEqual(refused?["status"] as? Int, 400, "\(refused ?? [:])")
        XCTAssertTrue((refused?["body"] as? String)?.contains("too close to 0") == true, "\(refused ?? [:])")
        let status = session.client(["http", "GET", session.base + "/api/status", "--token", session.token]).json
        XCTAssertEqual(status?["status"] as? Int, 200, "the player still answers: \(status ?? [:])")
    }

    // MARK: A seek that never lands

    /// A seek into a stream whose server goes silent (network timeout one hour) cannot land;
    /// the dispatcher waited for it, so `status` and `quit` from every client went unanswered.
    /// Now the seek's reply says it has not landed after 10 s, and the next commands run.
    func testASeekThatNeverLandsDoesNotHoldTheDispatcher() throws {
        let server = try HTTPTestServer()
        defer { server.stop() }
        let size = (try FileManager.default.attributesOfItem(atPath: GstplayProcess.fixture("h264-aac-10s.mp4"))[.size] as? Int) ?? 0
        let url = server.url("/stall/h264-aac-10s.mp4?after=\(size / 3)")
        let path = ControlSocketTests.socketPath()
        let child = try GstplayProcess(["--json", "--network-timeout", "3600", "--input-ipc-server", path, url]).started()
        defer { stop(child) }
        let client = try UnixSocketClient(path: path, timeout: 60)
        XCTAssertTrue(child.waitForLine(containing: #""to":"playing""#, timeout: 30), child.stdout + child.stderr)
        client.send(#"{"command": ["seek", "9"], "request_id": 1}"#)          // gstplay's seek: waits for the landing
        client.send(#"{"command": "status", "request_id": 2}"#)
        let seek = client.reply(to: 1, timeout: 60)
        XCTAssertEqual(seek?["error"] as? String,
                       "seek: not landed within 10 s (the seek goes on; its seek-done event follows when it lands)", "\(seek ?? [:])")
        XCTAssertEqual(client.reply(to: 2, timeout: 30)?["error"] as? String, "success", "status after the seek is answered")
        client.send(#"{"command": "quit", "request_id": 3}"#)
        XCTAssertEqual(child.waitForExit(timeout: 30), 0, child.stderr)
    }

    // MARK: A burst of loads

    /// The locations of a burst: the mp4 and mp3 fixtures, a missing file, a refused URL, garbage.
    private func burstLocations() -> [String] {
        let refused = LocalSockets.refusingTCPPort().map { "http://127.0.0.1:\($0)/clip.mp4" } ?? "http://127.0.0.1:1/clip.mp4"
        return [GstplayProcess.fixture("h264-aac-10s.mp4"), GstplayProcess.fixture("mp3-4s.mp3"), "/nonexistent/missing.mp4",
                refused, GstplayProcess.fixture("garbage.bin")]
    }

    /// ~1000 mixed `load` lines in one write, then `quit`: the player deadlocked in most such
    /// bursts (the loop thread in a state change, a streaming thread in playbin's message
    /// handler; `quit` ignored). Now it works through them and exits on `quit`.
    func testABurstOfMixedLoadsOnTheConsoleEndsOnQuit() throws {
        let locations = burstLocations()
        let burst = (0..<1000).map { "load \(locations[$0 % locations.count])\n" }.joined() + "quit\n"
        let started = Date()
        let child = try launch(["--json", GstplayProcess.fixture("h264-aac-10s.mp4")])
        XCTAssertTrue(child.waitForLine(containing: #""to":"playing""#), child.stdout)
        child.send(Data(burst.utf8))
        let outcome = finish("1000 loads then quit (console)", child, started: started, timeout: 180)
        XCTAssertNotNil(outcome.status, "still running 180 s after the burst (a deadlock):\n\(outcome.stderr.suffix(2000))")
        XCTAssertNil(outcome.signal, "died from signal \(outcome.signal ?? 0):\n\(outcome.stderr.suffix(4000))")
        XCTAssertTrue([0, 1].contains(outcome.status ?? -1), "exit \(outcome.status ?? -1)")
        XCTAssertEqual(outcome.replies.count, 1001, "one reply per line")
        assertNoCrashMarkers(outcome.stderr)
    }

    /// The same burst over the socket: 16 clients each write 63 `load` requests at once (one
    /// client may have 64 in flight), then another client sends `quit`.
    func testABurstOfMixedLoadsOnTheSocketEndsOnQuit() throws {
        let (child, first, path) = try socketSession()
        defer { stop(child) }
        let locations = burstLocations()
        var clients = [first]
        for _ in 1..<16 { clients.append(try UnixSocketClient(path: path, timeout: 30)) }
        for (n, client) in clients.enumerated() {
            let burst = (0..<63).map { i in
                #"{"command": ["load", "\#(locations[(n * 63 + i) % locations.count])"], "request_id": \#(i + 1)}"# + "\n"
            }.joined()
            XCTAssertTrue(client.send(Data(burst.utf8)))
        }
        let quitter = try UnixSocketClient(path: path, timeout: 30)
        quitter.send(#"{"command": "quit", "request_id": 1}"#)
        let status = child.waitForExit(timeout: 180)
        XCTAssertNotNil(status, "still running 180 s after the burst (a deadlock)")
        XCTAssertEqual(child.process.terminationReason, .exit, "died from a signal:\n\(child.stderr.suffix(4000))")
        let answered = clients.map { client in client.objects.filter { $0["request_id"] != nil && $0["event"] == nil }.count }.reduce(0, +)
        print("burst over the socket: \(answered) of 1008 loads answered before the quit")
        assertNoCrashMarkers(child.stderr)
    }

    /// Kills `child` when a failed assertion left it running (its exit is waited for only once).
    private func stop(_ child: GstplayProcess) {
        guard child.process.isRunning else { return }
        kill(child.process.processIdentifier, SIGKILL)
        child.process.waitUntilExit()
    }

    /// No GLib criticals, Swift traps or crash reports on `stderr`.
    private func assertNoCrashMarkers(_ stderr: String, file: StaticString = #filePath, line: UInt = #line) {
        for marker in ["-CRITICAL **", "ERROR:", "Fatal error", "Program crashed", "Segmentation"] {
            XCTAssertFalse(stderr.contains(marker), "'\(marker)' on stderr:\n\(stderr.suffix(4000))", file: file, line: line)
        }
    }
}
