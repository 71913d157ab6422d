import Foundation
import TestSupport
import XCTest

/// Runs the built `gstplay` binary on the fixtures (real pipelines with fake sinks, real time).
/// Every wait has a deadline; a hung child is killed after 20 s and the test fails.
final class EndToEndTests: XCTestCase {
    private let short = GstplayProcess.fixture("short-0.2s.mp4")
    private let webm = GstplayProcess.fixture("vp8-opus-4s.webm")
    private let tenSeconds = GstplayProcess.fixture("h264-aac-10s.mp4")

    private func events(_ lines: [String]) -> [[String: Any]] { lines.compactMap(jsonObject).filter { $0["event"] != nil } }
    private func replies(_ lines: [String]) -> [[String: Any]] { lines.compactMap(jsonObject).filter { $0["event"] == nil } }

    // (a)
    func testPlaysShortClipToTheEndWhileStdinStaysOpen() throws {
        let child = GstplayProcess([short])
        try child.start()
        // stdin is a pipe we never close: reading it must not hold up the exit at EOS.
        XCTAssertEqual(child.waitForExit(), 0)
        XCTAssertTrue(child.stderr.contains("Now playing"), child.stderr)
        XCTAssertTrue(child.stderr.contains("Video: 320x240"), child.stderr)
        XCTAssertFalse(child.stderr.contains("error"), child.stderr)
        child.closeInput()
    }

    // (b)
    func testMissingFileExitsOneWithOneErrorLine() throws {
        let result = try GstplayProcess.run(["Fixtures/does-not-exist.mp4"])
        XCTAssertEqual(result.status, 1)
        let errors = GstplayProcess.completeLines(result.stderr).filter { $0.contains("error") }
        XCTAssertEqual(errors, ["gstplay: error: Fixtures/does-not-exist.mp4: Resource not found."], result.stderr)
    }

    func testErrorOnOneItemContinuesWithTheNextAndExitsOne() throws {
        let result = try GstplayProcess.run(["--json", "Fixtures/missing-one.webm", short])
        XCTAssertEqual(result.status, 1)
        XCTAssertEqual(GstplayProcess.completeLines(result.stderr).filter { $0.contains("error") },
                       ["gstplay: error: Fixtures/missing-one.webm: Resource not found."])
        let all = events(GstplayProcess.completeLines(result.stdout))
        XCTAssertEqual(all.filter { $0["event"] as? String == "uri" }.map { $0["index"] as? Int }, [0, 1])
        XCTAssertEqual(all.filter { $0["event"] as? String == "error" }.first?["element"] as? String, "source")
        XCTAssertEqual(all.filter { $0["event"] as? String == "eos" }.count, 1, "the second item played to the end")
    }

    // (c)
    func testUsageErrorsExitTwo() throws {
        let cases: [[String]] = [[], ["--volume", "150", short], ["--volume", "abc", short], ["--start", "1:99", short],
                                 ["--start=-5", short], ["--rate", "0", short], ["--rate", "3", short],
                                 ["--no-video", "--video-sink", "fakesink", short], ["--position-interval", "0", short],
                                 ["--bogus-option", short]]
        for arguments in cases {
            let result = try GstplayProcess.run(arguments)
            XCTAssertEqual(result.status, 2, "\(arguments): \(result.stderr)")
            XCTAssertTrue(result.stderr.hasPrefix("gstplay: error: "), "\(arguments): \(result.stderr)")
            XCTAssertEqual(result.stdout, "", "\(arguments)")
        }
        let none = try GstplayProcess.run([])
        XCTAssertTrue(none.stderr.contains("Missing expected argument"), none.stderr)
    }

    /// `--rate -1` (no `=`) is the option's value, not a missing one.
    func testNegativeRateWithoutEquals() throws {
        let result = try GstplayProcess.run(["--json", "--rate", "-1", short])
        XCTAssertNotEqual(result.status, 2, result.stderr)
        XCTAssertFalse(result.stderr.contains("Missing value"), result.stderr)
        let rates = events(GstplayProcess.completeLines(result.stdout)).filter { $0["event"] as? String == "rate" }
        XCTAssertEqual(rates.first?["rate"] as? Double, -1, result.stdout)
    }

    func testHelpVersionAndCompletions() throws {
        let help = try GstplayProcess.run(["--help"])
        XCTAssertEqual(help.status, 0)
        for text in ["--audio-sink", "--video-sink", "--volume", "--start", "--rate", "--mute", "--no-video", "--no-audio",
                     "--quiet", "--json", "--keep-open", "--loop", "--position-interval", "SUBCOMMANDS", "thumbnails",
                     "gstplay help keys", "gstplay help commands", "EXIT CODES", "4 the control socket", "5 the web remote",
                     "143 SIGTERM"] {
            // ArgumentParser wraps the discussion at the terminal's width: compare with spaces.
            let flat = help.stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ")
            XCTAssertTrue(flat.contains(text), "--help lacks \(text)")
        }
        let version = try GstplayProcess.run(["--version"])
        XCTAssertEqual(version.status, 0)
        XCTAssertTrue(version.stdout.hasPrefix("gstplay "), version.stdout)
        let completion = try GstplayProcess.run(["--generate-completion-script", "bash"])
        XCTAssertEqual(completion.status, 0)
        XCTAssertTrue(completion.stdout.contains("--keep-open"), completion.stdout)
    }

    // (d)
    func testJSONSession() throws {
        let child = GstplayProcess(["--json", webm])
        try child.start()
        child.send(#"{"command":["seek","2"],"request_id":1}"#)
        XCTAssertTrue(child.waitForLine(containing: #""event":"seek-done""#), child.stdout)
        XCTAssertTrue(child.waitForLine(containing: #""to":"playing""#), child.stdout)
        child.send(#"{"command":"status","request_id":2}"#)
        child.send("{this is not json")
        child.send(#"{"command":"quit","request_id":3}"#)
        XCTAssertEqual(child.waitForExit(), 0)

        let lines = child.stdoutLines
        XCTAssertFalse(lines.isEmpty)
        XCTAssertEqual(jsonObject(lines[0])?["event"] as? String, "hello")
        XCTAssertEqual(jsonObject(lines[0])?["protocol"] as? Int, 1)
        XCTAssertNotNil(jsonObject(lines[0])?["gstreamer"] as? String)
        for line in lines { XCTAssertNotNil(jsonObject(line), "not a JSON object: \(line)") }

        let answered = replies(lines)
        XCTAssertEqual(answered.count, 4, "\(answered)")
        for id in [1, 2, 3] {
            let matching = answered.filter { $0["request_id"] as? Int == id }
            XCTAssertEqual(matching.count, 1, "reply \(id)")
            XCTAssertEqual(matching.first?["error"] as? String, "success", "reply \(id)")
        }
        let garbage = answered.filter { $0["request_id"] is NSNull }
        XCTAssertEqual(garbage.count, 1)
        XCTAssertTrue((garbage.first?["error"] as? String)?.hasPrefix("invalid JSON") ?? false, "\(garbage)")
        let status = answered.first { $0["request_id"] as? Int == 2 }?["data"] as? [String: Any]
        XCTAssertEqual(status?["state"] as? String, "playing")
        XCTAssertGreaterThanOrEqual(status?["position"] as? Double ?? 0, 2.0)
        let seekDone = events(lines).first { $0["event"] as? String == "seek-done" }
        XCTAssertEqual(seekDone?["position"] as? Double ?? -1, 2.0, accuracy: 0.05)
    }

    // (e)
    func testTextConsole() throws {
        let result = try GstplayProcess.run([webm], input: ["pause", "  STATUS ", "", "bogus", "quit"])
        XCTAssertEqual(result.status, 0, result.stderr)
        let errors = GstplayProcess.completeLines(result.stderr).filter { $0.contains("error:") }
        XCTAssertEqual(errors, ["gstplay: error: unknown command 'bogus' (type 'help' for the list)"], result.stderr)
        XCTAssertTrue(GstplayProcess.completeLines(result.stdout).contains { $0.hasPrefix("state=") }, result.stdout)
    }

    // (f)
    func testStdinClosedAtStartPlaysToTheEnd() throws {
        let result = try GstplayProcess.run([short])   // stdin is /dev/null
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertFalse(result.stderr.contains("error"), result.stderr)
    }

    // (g)
    func testJSONEventSequenceOfANormalRun() throws {
        let result = try GstplayProcess.run(["--json", short])
        XCTAssertEqual(result.status, 0, result.stderr)
        let lines = GstplayProcess.completeLines(result.stdout)
        for line in lines { XCTAssertNotNil(jsonObject(line), "not a JSON object: \(line)") }
        let names = lines.compactMap { jsonObject($0)?["event"] as? String }
        XCTAssertEqual(names.first, "hello")
        let opening = lines.firstIndex { $0.contains(#""event":"state""#) && $0.contains(#""from":"idle""#) && $0.contains(#""to":"opening""#) }
        let playing = lines.firstIndex { $0.contains(#""event":"state""#) && $0.contains(#""to":"playing""#) }
        let eos = names.firstIndex(of: "eos")
        XCTAssertNotNil(opening)
        XCTAssertNotNil(playing)
        XCTAssertNotNil(eos)
        if let opening, let playing, let eos { XCTAssertTrue(0 < opening && opening < playing && playing < eos, "\(names)") }
        XCTAssertTrue(names.contains("sinks"))
        XCTAssertTrue(names.contains("media-size"))
        let final = events(lines).first { $0["event"] as? String == "eos" }?["position"] as? Double
        XCTAssertEqual(final ?? 0, 0.221, accuracy: 0.05, "the final position comes with eos")
        XCTAssertEqual(result.stderr, "", "JSON mode keeps notes off stderr")
    }

    // (h)
    func testSIGTERMExits143() throws {
        let child = GstplayProcess(["--json", tenSeconds])
        try child.start()
        XCTAssertTrue(child.waitForLine(containing: #""to":"playing""#), child.stdout)
        child.process.terminate()
        XCTAssertEqual(child.waitForExit(), 143)
    }

    func testSIGINTExits130() throws {
        let child = GstplayProcess([tenSeconds])
        try child.start()
        XCTAssertTrue(child.waitFor { _, err in err.contains("Video:") }, child.stderr)
        child.process.interrupt()
        XCTAssertEqual(child.waitForExit(), 130)
    }

    func testKeepOpenStaysAtTheEndUntilQuit() throws {
        let child = GstplayProcess(["--json", "--keep-open", short])
        try child.start()
        XCTAssertTrue(child.waitForLine(containing: #""event":"eos""#), child.stdout)
        child.send("status")
        XCTAssertTrue(child.waitFor { out, _ in GstplayProcess.completeLines(out).contains { $0.contains(#""state":"ended""#) } }, child.stdout)
        XCTAssertTrue(child.process.isRunning)
        child.send(#"{"command": "quit", "request_id": "bye"}"#)
        XCTAssertEqual(child.waitForExit(), 0)
        XCTAssertTrue(child.stdoutLines.contains(#"{"data":null,"error":"success","request_id":"bye"}"#))
    }

    func testLoopRepeatsThePlaylist() throws {
        let child = GstplayProcess(["--json", "--loop", short])
        try child.start()
        XCTAssertTrue(child.waitFor { out, _ in out.components(separatedBy: #""event":"eos""#).count >= 3 }, "two full passes")
        child.send("quit")
        XCTAssertEqual(child.waitForExit(), 0)
        XCTAssertGreaterThanOrEqual(child.stdoutLines.filter { $0.contains(#""event":"uri""#) }.count, 2)
    }

    func testLoopOverOnlyFailingItemsStops() throws {
        let result = try GstplayProcess.run(["--loop", "Fixtures/nothing-here.mp4"])
        XCTAssertEqual(result.status, 1)
        XCTAssertEqual(GstplayProcess.completeLines(result.stderr).filter { $0.contains("error") }.count, 1, result.stderr)
    }

    func testPlaylistNavigation() throws {
        // The second item lasts 10 s: the commands after `next` reach it while it plays (a 0.2 s
        // one ended the list under load before `prev` came, and the player exited unanswered).
        let child = GstplayProcess(["--json", webm, tenSeconds])
        try child.start()
        XCTAssertTrue(child.waitForLine(containing: #""to":"playing""#))
        child.send(#"{"command": "next", "request_id": 1}"#)
        XCTAssertTrue(child.waitForLine(containing: #""event":"uri","index":1"#), child.stdout)
        child.send(#"{"command": "next", "request_id": 2}"#)
        XCTAssertTrue(child.waitForLine(containing: #""request_id":2"#))
        child.send(#"{"command": "prev", "request_id": 3}"#)
        child.send(#"{"command": ["load", "Fixtures/short-0.2s.mp4"], "request_id": 4}"#)
        child.send(#"{"command": "quit", "request_id": 5}"#)
        XCTAssertEqual(child.waitForExit(), 0)
        let answered = replies(child.stdoutLines)
        XCTAssertEqual(answered.first { $0["request_id"] as? Int == 1 }?["error"] as? String, "success")
        XCTAssertEqual(answered.first { $0["request_id"] as? Int == 2 }?["error"] as? String, "next: already at the last item")
        XCTAssertEqual(answered.first { $0["request_id"] as? Int == 3 }?["error"] as? String, "success")
        XCTAssertEqual(answered.first { $0["request_id"] as? Int == 4 }?["error"] as? String, "success")
        let uris = events(child.stdoutLines).filter { $0["event"] as? String == "uri" }
        XCTAssertEqual(uris.map { $0["index"] as? Int }, [0, 1, 0, 1], "\(uris)")
        XCTAssertEqual(uris.last?["count"] as? Int, 3, "load inserts after the current item")
    }

    func testStartOption() throws {
        for (start, expected) in [("50%", 2.0), ("1.5", 1.5)] {
            let child = GstplayProcess(["--json", "--start", start, webm])
            try child.start()
            XCTAssertTrue(child.waitForLine(containing: #""event":"seek-done""#), child.stdout)
            child.send("quit")
            XCTAssertEqual(child.waitForExit(), 0)
            let seekDone = events(child.stdoutLines).first { $0["event"] as? String == "seek-done" }
            XCTAssertEqual(seekDone?["position"] as? Double ?? -1, expected, accuracy: 0.05, start)
            let positions = events(child.stdoutLines).filter { $0["event"] as? String == "position" }.compactMap { $0["position"] as? Double }
            XCTAssertFalse(positions.contains { $0 > 0.3 && $0 < expected - 0.3 }, "\(start): playback started at the start position: \(positions)")
        }
    }

    func testHostileInputDoesNotCrash() throws {
        let child = GstplayProcess(["--json", webm])
        try child.start()
        child.send(Data(repeating: 0x61, count: 1 << 20) + Data([0x0A]))
        child.send(Data([0xFF, 0xFE, 0x20, 0xC0, 0x0A]))
        child.send(Data("\u{0}\u{7}seek\u{1B}[2J 1\n".utf8))
        child.send(#"{"command":"status","request_id":1}"#)
        child.send(#"{"command":"quit","request_id":2}"#)
        XCTAssertEqual(child.waitForExit(), 0, child.stderr)
        let answered = replies(child.stdoutLines)
        guard answered.count == 5 else { return XCTFail("expected 5 replies: \(answered)") }
        XCTAssertEqual(answered[0]["error"] as? String, "line too long (more than 65536 bytes); ignored")
        XCTAssertTrue((answered[1]["error"] as? String)?.hasPrefix("unknown command") ?? false)
        XCTAssertTrue((answered[2]["error"] as? String)?.hasPrefix("unknown command") ?? false)
        XCTAssertEqual(answered[3]["error"] as? String, "success")
        XCTAssertEqual(answered[4]["error"] as? String, "success")
    }

    func testQuietNoVideoPrintsNothing() throws {
        let result = try GstplayProcess.run(["--quiet", "--no-video", "--volume", "50", "--mute", "--rate", "2", webm])
        XCTAssertEqual(result.status, 0)
        XCTAssertEqual(result.stderr, "")
        XCTAssertEqual(result.stdout, "")
    }
}
