import Foundation
import ProcessProbe
import TestSupport
import XCTest

/// The CLI's bad-input corpus (issue #6, docs/RELIABILITY.md): every case runs the built
/// `gstplay` binary with a time limit and checks the documented exit code, exactly one clear
/// error line on stderr naming the input (`gstplay: error: <input>: …` for a failed item,
/// `error: …` for a console command), and that nothing crashed (no death by signal, no exit
/// status ≥ 128 except the signal cases, no GLib criticals, no Swift runtime traps) or hung.
final class HostileCLITests: XCTestCase {
    private let webm = GstplayProcess.fixture("vp8-opus-4s.webm")
    private let short = GstplayProcess.fixture("short-0.2s.mp4")
    private let h264 = GstplayProcess.fixture("h264-aac-10s.mp4")
    private var scratch: URL!

    override func setUpWithError() throws {
        scratch = FileManager.default.temporaryDirectory.appendingPathComponent("gstplay-hostile-\(getpid())-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        chmod(scratch.path, 0o755)
    }

    override func tearDown() {
        if let scratch { try? FileManager.default.removeItem(at: scratch) }
    }

    // MARK: Running a case

    /// What one run of gstplay did.
    struct Outcome {
        var name: String
        /// Exit status; nil when the process died from a signal or had to be killed.
        var status: Int32?
        /// The signal that ended it, if one did.
        var signal: Int32?
        var stdout: String
        var stderr: String
        var seconds: Double

        var stderrLines: [String] { GstplayProcess.completeLines(stderr) }
        /// `gstplay: error: …` (a failed item) and `error: …` (a console command) lines.
        var errorLines: [String] { stderrLines.filter { $0.hasPrefix("gstplay: error: ") || $0.hasPrefix("error: ") } }
        var warningLines: [String] { stderrLines.filter { $0.hasPrefix("gstplay: warning: ") } }
        var json: [[String: Any]] { GstplayProcess.completeLines(stdout).compactMap(jsonObject) }
        var events: [[String: Any]] { json.filter { $0["event"] != nil } }
        var replies: [[String: Any]] { json.filter { $0["event"] == nil } }
        func events(_ name: String) -> [[String: Any]] { events.filter { $0["event"] as? String == name } }
    }

    private static let environment = ProcessInfo.processInfo.environment

    /// Starts gstplay (or `executable` with `arguments`, for wrappers such as `setpriv`).
    private func launch(_ arguments: [String], input: GstplayProcess.Input = .pipe, environment extra: [String: String] = [:],
                        executable: String? = nil) throws -> GstplayProcess {
        let child = GstplayProcess(arguments, input: input, environment: Self.environment.merging(extra) { $1 })
        if let executable { child.process.executableURL = URL(fileURLWithPath: executable) }
        try child.start()
        return child
    }

    /// Waits for `child` to end (killing it after `timeout`, which fails the test) and collects what it did.
    private func finish(_ name: String, _ child: GstplayProcess, started: Date, timeout: TimeInterval = 20) -> Outcome {
        let status = child.waitForExit(timeout: timeout)
        let signal = child.process.terminationReason == .uncaughtSignal ? child.process.terminationStatus : nil
        return Outcome(name: name, status: status, signal: signal, stdout: child.stdout, stderr: child.stderr,
                       seconds: Date().timeIntervalSince(started))
    }

    /// Runs gstplay to the end with stdin at EOF (`/dev/null`), or with `lines` written and stdin closed.
    private func run(_ name: String, _ arguments: [String], lines: [String]? = nil, environment: [String: String] = [:],
                     timeout: TimeInterval = 20) throws -> Outcome {
        let started = Date()
        let child = try launch(arguments, input: lines == nil ? .devNull : .pipe, environment: environment)
        if let lines {
            for line in lines { child.send(line) }
            child.closeInput()
        }
        return finish(name, child, started: started, timeout: timeout)
    }

    /// Runs a console session on a playing 4 s clip: waits until it plays, sends `input`,
    /// waits for `until` (on stdout, stderr), then sends `quit` unless the process ended.
    private func console(_ name: String, json: Bool = false, send input: [Data], timeout: TimeInterval = 20,
                         until: @escaping (_ stdout: String, _ stderr: String) -> Bool) throws -> Outcome {
        let started = Date()
        let child = try launch(json ? ["--json", webm] : [webm])
        let playing = child.waitFor(timeout: 10) { out, err in json ? out.contains(#""to":"playing""#) : err.contains("Video: ") }
        XCTAssertTrue(playing, "\(name): did not start playing: \(child.stderr)")
        for data in input { child.send(data) }
        XCTAssertTrue(child.waitFor(timeout: 10, until), "\(name): expected output did not come; stdout:\n\(child.stdout)\nstderr:\n\(child.stderr)")
        child.send("quit")
        child.closeInput()
        return finish(name, child, started: started, timeout: timeout)
    }

    /// What every case must satisfy: it ended by itself (no hang), not from a signal, with a
    /// status below 128, without GLib criticals or Swift runtime errors on stderr.
    private func assertSane(_ outcome: Outcome, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertNil(outcome.signal, "\(outcome.name): died from signal \(outcome.signal ?? 0)\n\(outcome.stderr)", file: file, line: line)
        XCTAssertNotNil(outcome.status, "\(outcome.name): did not exit normally", file: file, line: line)
        XCTAssertLessThan(outcome.status ?? 255, 128, "\(outcome.name): crash-like exit status", file: file, line: line)
        for marker in ["-CRITICAL **", "** (gstplay", "Fatal error", "Segmentation", "AddressSanitizer", "ThreadSanitizer"] {
            XCTAssertFalse(outcome.stderr.contains(marker), "\(outcome.name): '\(marker)' on stderr:\n\(outcome.stderr)", file: file, line: line)
        }
        print("corpus: case=\"\(outcome.name)\" exit=\(outcome.status.map(String.init) ?? "signal \(outcome.signal ?? -1)") seconds=\(String(format: "%.2f", outcome.seconds)) error=\"\(outcome.errorLines.first ?? "")\"")
    }

    /// A failed item: the exit status, and exactly one `gstplay: error: <input>: <message>` line
    /// whose message contains each of `texts`.
    private func assertOneItemError(_ outcome: Outcome, exit: Int32 = 1, input: String, _ texts: [String],
                                    file: StaticString = #filePath, line: UInt = #line) {
        assertSane(outcome, file: file, line: line)
        XCTAssertEqual(outcome.status, exit, "\(outcome.name): \(outcome.stderr)", file: file, line: line)
        XCTAssertEqual(outcome.errorLines.count, 1, "\(outcome.name): exactly one error line:\n\(outcome.stderr)", file: file, line: line)
        guard let error = outcome.errorLines.first else { return }
        XCTAssertTrue(error.hasPrefix("gstplay: error: \(input): "), "\(outcome.name): names the input: \(error)", file: file, line: line)
        for text in texts {
            XCTAssertTrue(error.contains(text), "\(outcome.name): '\(text)' missing from: \(error)", file: file, line: line)
        }
    }

    /// A console command that was refused: exit 0 after `quit`, exactly one `error: <message>` line.
    private func assertOneConsoleError(_ outcome: Outcome, _ message: String, file: StaticString = #filePath, line: UInt = #line) {
        assertSane(outcome, file: file, line: line)
        XCTAssertEqual(outcome.status, 0, "\(outcome.name): \(outcome.stderr)", file: file, line: line)
        XCTAssertEqual(outcome.errorLines, ["error: \(message)"], "\(outcome.name)", file: file, line: line)
    }

    private func errorLine(_ stderr: String) -> Bool { GstplayProcess.completeLines(stderr).contains { $0.hasPrefix("error: ") } }

    // MARK: Files

    func testMissingFile() throws {
        let outcome = try run("missing file", ["Fixtures/does-not-exist.mp4"])
        assertOneItemError(outcome, input: "Fixtures/does-not-exist.mp4", ["Resource not found."])
    }

    func testEmptyArgumentIsAUsageError() throws {
        let outcome = try run("empty argument", ["  "])
        assertSane(outcome)
        XCTAssertEqual(outcome.status, 2, "usage error")
        XCTAssertEqual(outcome.stderrLines.first, "Error: Empty location '  '", outcome.stderr)
        XCTAssertEqual(outcome.stderrLines.filter { $0.hasPrefix("Error:") }.count, 1, outcome.stderr)
        XCTAssertEqual(outcome.stdout, "")
    }

    func testDirectoryWithNoFiles() throws {
        let empty = scratch.appendingPathComponent("empty").path
        try FileManager.default.createDirectory(atPath: empty, withIntermediateDirectories: true)
        _ = FileManager.default.createFile(atPath: empty + "/.hidden.mp4", contents: Data("x".utf8)) // hidden files are skipped
        let outcome = try run("directory with no files", [empty])
        assertOneItemError(outcome, input: empty, ["nothing to play (the directory contains no files)"])
    }

    func testDirectoryWithOnlyATextFile() throws {
        let directory = scratch.appendingPathComponent("notes").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let text = String(repeating: "These are notes, not media.\n", count: 40)
        _ = FileManager.default.createFile(atPath: directory + "/notes.txt", contents: Data(text.utf8))
        let outcome = try run("directory with only a text file", [directory])
        assertOneItemError(outcome, input: directory + "/notes.txt", ["This appears to be a text file"])
    }

    func testEmptyFile() throws {
        assertOneItemError(try run("empty file", ["Fixtures/empty.mp4"]), input: "Fixtures/empty.mp4", ["Stream contains no data."])
    }

    func testRandomBytes() throws {
        assertOneItemError(try run("random bytes", ["Fixtures/garbage.bin"]), input: "Fixtures/garbage.bin",
                           ["Could not determine type of stream."])
    }

    func testMoovMissing() throws {
        let outcome = try run("MP4 without moov", ["Fixtures/no-moov.mp4"])
        // decodebin sometimes swallows qtdemux's error (GStreamer 1.22); the open watchdog then reports it.
        let watchdog = outcome.errorLines.first?.contains("no stream became playable") ?? false
        assertOneItemError(outcome, input: "Fixtures/no-moov.mp4", [watchdog ? "no stream became playable" : "This file contains no playable streams."])
    }

    func testTruncatedMP4PlaysWhatIsThereAndWarns() throws {
        let outcome = try run("truncated MP4 (mdat cut)", ["Fixtures/truncated.mp4"])
        assertSane(outcome)
        XCTAssertEqual(outcome.status, 0, outcome.stderr)
        XCTAssertEqual(outcome.errorLines, [])
        XCTAssertEqual(outcome.warningLines.filter { $0.contains("the file may be truncated") }.count, 1, outcome.stderr)
        XCTAssertTrue(outcome.warningLines.contains { $0.hasPrefix("gstplay: warning: Fixtures/truncated.mp4: ") }, outcome.stderr)
    }

    private let allDecoders = "avdec_h264:NONE,openh264dec:NONE,avdec_aac:NONE,avdec_aac_fixed:NONE,avdec_aac_latm:NONE,faad:NONE,fdkaacdec:NONE"

    func testNoDecoderAtAll() throws {
        let outcome = try run("no decoder for any stream", [h264], environment: ["GST_PLUGIN_FEATURE_RANK": allDecoders])
        assertOneItemError(outcome, input: h264, ["missing a plug-in", "H.264", "AAC decoder"])
    }

    func testMissingVideoDecoderPlaysTheAudio() throws {
        let outcome = try run("no video decoder", ["--json", "--start", "9", h264],
                              environment: ["GST_PLUGIN_FEATURE_RANK": "avdec_h264:NONE,openh264dec:NONE"])
        assertSane(outcome)
        XCTAssertEqual(outcome.status, 0, outcome.stderr)
        XCTAssertEqual(outcome.errorLines, [])
        let warnings = outcome.events("warning")
        XCTAssertTrue(warnings.contains { $0["kind"] as? String == "missingPlugin" && ($0["missing_plugins"] as? [String])?.first?.contains("H.264") == true },
                      "\(warnings)")
        XCTAssertEqual(outcome.events("eos").count, 1, "the audio played to the end")
        XCTAssertEqual(outcome.events("error").count, 0)
    }

    func testUnsupportedScheme() throws {
        assertOneItemError(try run("unsupported URI scheme", ["foo://x"]), input: "foo://x",
                           ["No URI handler implemented for \"foo\"", "FOO protocol source"])
    }

    func testMalformedURI() throws {
        assertOneItemError(try run("malformed URI", ["http://[::1"]), input: "http://[::1", ["malformed URI 'http://[::1': Invalid IPv6 address"])
    }

    func testUnreadableFile() throws {
        let secret = scratch.appendingPathComponent("secret.mp4").path
        try FileManager.default.copyItem(atPath: short, toPath: secret)
        let started = Date()
        let child: GstplayProcess
        if getuid() == 0 {
            // root reads a 0600 file anyway: run as nobody on a root-owned 0600 copy.
            let setpriv = "/usr/bin/setpriv"
            guard FileManager.default.isExecutableFile(atPath: setpriv) else { throw XCTSkip("no setpriv (util-linux) to drop root") }
            chmod(secret, 0o600)
            var binary = GstplayProcess.binary.path
            if !Self.worldExecutable(binary) {
                binary = scratch.appendingPathComponent("gstplay").path
                try FileManager.default.copyItem(atPath: GstplayProcess.binary.path, toPath: binary)
            }
            let cache = scratch.appendingPathComponent("cache").path
            try FileManager.default.createDirectory(atPath: cache, withIntermediateDirectories: true)
            chmod(cache, 0o777)
            child = try launch(["--reuid=65534", "--regid=65534", "--clear-groups", binary, secret], input: .devNull,
                               environment: ["HOME": scratch.path, "XDG_CACHE_HOME": cache], executable: setpriv)
        } else {
            chmod(secret, 0)
            if access(secret, R_OK) == 0 { throw XCTSkip("this user reads a mode-000 file (capabilities)") }
            child = try launch([secret], input: .devNull)
        }
        let outcome = finish("unreadable file (permissions)", child, started: started)
        assertOneItemError(outcome, input: secret, ["Could not open file", "for reading", "(Permission denied)"])
    }

    /// Every directory on the way to `path` is searchable by others and the file executable by them.
    private static func worldExecutable(_ path: String) -> Bool {
        var url = URL(fileURLWithPath: path).resolvingSymlinksInPath()
        while true {
            var info = stat()
            guard stat(url.path, &info) == 0, info.st_mode & 0o001 != 0 else { return false }
            if url.path == "/" { return true }
            url = url.deletingLastPathComponent()
        }
    }

    // MARK: Network (a real local server with faults; the cases run side by side)

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
        func outcome(_ running: Running) -> Outcome { finish(running.name, running.child, started: running.started, timeout: running.timeout) }

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

    // MARK: Console: seeks and rates during playback

    func testHugeSeekEndsTheItem() throws {
        let started = Date()
        let child = try launch(["--json", webm])
        XCTAssertTrue(child.waitForLine(containing: #""to":"playing""#), child.stdout)
        child.send("seek 99999999")
        let outcome = finish("seek 99999999", child, started: started)
        assertSane(outcome)
        XCTAssertEqual(outcome.status, 0)
        XCTAssertEqual(outcome.errorLines, [])
        XCTAssertEqual(outcome.replies.map { $0["error"] as? String }, ["success"])
        XCTAssertEqual(outcome.events("eos").count, 1, "the seek past the end ends the item")
        XCTAssertLessThan(outcome.seconds, 4, "well before the 4 s clip would have ended by itself")
    }

    func testNegativeRelativeSeekStopsAtTheStart() throws {
        let outcome = try console("seek -5 (relative, at 0:00)", json: true, send: [Data("seek -5\n".utf8)]) { out, _ in
            out.contains(#""event":"seek-done""#)
        }
        assertSane(outcome)
        XCTAssertEqual(outcome.status, 0)
        XCTAssertEqual(outcome.replies.first?["error"] as? String, "success")
        XCTAssertEqual(outcome.events("seek-done").first?["position"] as? Double ?? -1, 0, accuracy: 0.05)
    }

    func testNonFiniteSeekTargetsAreRefused() throws {
        for target in ["nan", "inf", "-inf", "1e400"] {
            let outcome = try console("seek \(target)", send: [Data("seek \(target)\n".utf8)]) { _, err in self.errorLine(err) }
            assertOneConsoleError(outcome, "seek: invalid time '\(target)' (expected seconds (90), [H:]M:SS[.f] (1:30, 1:02:03.5), +N/-N (relative) or N% (0-100))")
        }
    }

    func testZeroAndAbsurdRatesAreRefused() throws {
        let cases = [("rate 0", "rate 0.0 is outside the allowed range -1.0…2.0 (and must not be 0)"),
                     ("rate 1e9", "rate: invalid number '1e9'"),
                     ("rate 1000000000", "rate 1000000000.0 is outside the allowed range -1.0…2.0 (and must not be 0)"),
                     ("rate -1000", "rate -1000.0 is outside the allowed range -1.0…2.0 (and must not be 0)")]
        for (command, message) in cases {
            let outcome = try console(command, send: [Data((command + "\n").utf8)]) { _, err in self.errorLine(err) }
            assertOneConsoleError(outcome, message)
        }
    }

    // MARK: Console garbage

    func testBinaryBytesOnTheConsole() throws {
        let outcome = try console("binary bytes", send: [Data([0xFF, 0xFE, 0x00, 0x07, 0x1B, 0x5B, 0x32, 0x4A, 0x20, 0xC0, 0x0A])]) { _, err in
            self.errorLine(err)
        }
        assertOneConsoleError(outcome, "unknown command '\u{FFFD}\u{FFFD}\\u0000\\u0007\\u001b[2J' (type 'help' for the list)")
    }

    func testOneMegabyteLine() throws {
        let outcome = try console("1 MB line", send: [Data(repeating: UInt8(ascii: "a"), count: 1 << 20) + Data([0x0A])]) { _, err in
            self.errorLine(err)
        }
        assertOneConsoleError(outcome, "line too long (more than 65536 bytes); ignored")
    }

    func testUnknownCommand() throws {
        let outcome = try console("unknown command", send: [Data("frobnicate now\n".utf8)]) { _, err in self.errorLine(err) }
        assertOneConsoleError(outcome, "unknown command 'frobnicate' (type 'help' for the list)")
    }

    func testMalformedJSON() throws {
        let outcome = try console("malformed JSON", json: true, send: [Data("{\"command\": [\"seek\", \n".utf8)]) { out, _ in
            out.contains(#""request_id":null"#)
        }
        assertSane(outcome)
        XCTAssertEqual(outcome.status, 0)
        XCTAssertEqual(outcome.errorLines, [], "JSON mode answers on stdout")
        let reply = outcome.replies.first
        XCTAssertEqual(outcome.replies.count, 2, "one reply for the bad line, one for quit: \(outcome.replies)")
        XCTAssertTrue(reply?["request_id"] is NSNull)
        XCTAssertTrue((reply?["error"] as? String)?.hasPrefix("invalid JSON: ") ?? false, "\(String(describing: reply))")
    }

    func testJSONOfTheWrongShape() throws {
        let cases: [(String, String, Any)] = [
            (#"[1, 2]"#, #"a request must be a JSON object such as {"command": ["pause"], "request_id": 1}"#, NSNull()),
            (#"{"request_id": 4}"#, #"missing "command""#, 4),
            (#"{"command": {"seek": 1}, "request_id": "x"}"#, #""command" must be a string or an array of strings"#, "x"),
            (#"{"command": ["seek", [1]], "request_id": 6}"#, #""command" items must be strings or numbers"#, 6),
            (#"{"command": "pause", "request_id": {"a": 1}}"#, #""request_id" must be a number or a string"#, NSNull()),
            (#"{"command": ["seek", 1e300], "request_id": 8}"#, "seek: invalid time '1e+300'", 8),
            // A number beyond Double is not a JSON value gstplay can represent: the line is unreadable.
            (#"{"command": ["seek", 1e400], "request_id": 9}"#, "invalid JSON: unsupported JSON value", NSNull()),
        ]
        for (line, message, id) in cases {
            let outcome = try console("JSON of the wrong shape: \(line)", json: true, send: [Data((line + "\n").utf8)]) { out, _ in
                out.contains(#""error":""#)
            }
            assertSane(outcome)
            XCTAssertEqual(outcome.status, 0, line)
            XCTAssertEqual(outcome.errorLines, [], line)
            guard let reply = outcome.replies.first else { XCTFail("no reply to \(line)"); continue }
            XCTAssertTrue((reply["error"] as? String)?.hasPrefix(message) ?? false, "\(line): \(reply)")
            XCTAssertEqual("\(reply["request_id"] ?? "absent")", "\(id)", line)
        }
    }

    // MARK: stdin / stdout

    func testStdinAtEOFFromTheStart() throws {
        for json in [false, true] {
            let outcome = try run("stdin at EOF from the start\(json ? " (--json)" : "")", (json ? ["--json"] : []) + [short])
            assertSane(outcome)
            XCTAssertEqual(outcome.status, 0, outcome.stderr)
            XCTAssertEqual(outcome.errorLines, [])
            if json { XCTAssertEqual(outcome.events("eos").count, 1) }
        }
    }

    /// `gstplay <&- >&-`: descriptors 0 and 1 closed. gstplay opens /dev/null on them first, so
    /// no later descriptor (libdispatch's epoll/eventfd, the media file) takes their numbers.
    func testStdinAndStdoutClosedAtStart() throws {
        let started = Date()
        let child = try launch(["-c", #"exec "$0" "$@" <&- >&-"#, GstplayProcess.binary.path, h264], executable: "/bin/sh")
        XCTAssertTrue(child.waitFor(timeout: 10) { _, err in err.contains("Video: ") }, child.stderr)
        let pid = child.process.processIdentifier
        for fd in [0, 1] {
            let target = ProcessProbe(pid: pid).descriptorTarget(Int32(fd))
            XCTAssertEqual(target, "/dev/null", "fd \(fd)")
        }
        child.process.terminate()
        let outcome = finish("stdin and stdout closed (fd 0 and 1), then SIGTERM", child, started: started)
        XCTAssertEqual(outcome.status, 143, "the signal case: exit 143")
        XCTAssertEqual(outcome.errorLines, [])
    }

    /// The reader of stdout goes away (`gstplay --json … | head -n 1`): no SIGPIPE death.
    /// (`env --default-signal=PIPE`: this test process ignores SIGPIPE, and children would inherit
    /// that; gstplay must ignore it by itself.)
    func testStdoutReaderGoesAway() throws {
        let started = Date()
        let child = try launch(["--default-signal=PIPE", "/bin/bash", "-c", #""$0" --json "$1" | head -n 1 >/dev/null; exit ${PIPESTATUS[0]}"#,
                                GstplayProcess.binary.path, webm], input: .devNull, executable: "/usr/bin/env")
        let outcome = finish("stdout reader goes away (| head -n 1)", child, started: started)
        assertSane(outcome)
        XCTAssertEqual(outcome.status, 0, "played to the end, writes to the closed pipe ignored: \(outcome.stderr)")
    }
}
