import Foundation
import TestSupport
import XCTest

/// Papercuts seen on the desktop, with the built binary (fake sinks, no display).
final class DesktopPapercutTests: XCTestCase {
    private let tracks = GstplayProcess.fixture("tracks.mkv")

    /// `gstplay help keys|commands` (the tables `--help` had): every key and console command is
    /// followed by at least two spaces before its summary (they ran together: `n / p, > /
    /// <next / previous item`, `playlist [save <pathlist …`).
    func testHelpKeepsItsColumnsApart() throws {
        let run = try GstplayProcess.run(["help", "keys"]), commands = try GstplayProcess.run(["help", "commands"])
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(commands.status, 0, commands.stderr)
        for syntax in ["n N >", "playlist [save <path>]", "track <type> <N|none>", "seek <time>", "SPACE", "cycle pause"] {
            XCTAssertTrue((run.stdout + commands.stdout).contains("  \(syntax)  "), "'\(syntax)' runs into its summary:\n\(run.stdout)\(commands.stdout)")
        }
    }

    /// Selecting tracks on the console before the tracks are known applies them once they are
    /// (not "the media has no audio tracks"), and each selection is reported once ("Subtitles
    /// off" was printed twice: the command's reply and the event's note).
    func testTrackCommandsSentAtStartApplyOnceAndAreReportedOnce() throws {
        let child = try GstplayProcess(["--no-video", "--audio-sink", "fakeaudiosink", tracks]).started()
        child.send("track audio 1")
        child.send("track subtitle none")
        XCTAssertTrue(child.waitFor(timeout: 20) { out, err in (out + err).contains("Deutsch-mono") && (out + err).contains("Subtitles off") },
                      "stdout:\n\(child.stdout)\nstderr:\n\(child.stderr)")
        child.send("status")
        XCTAssertTrue(child.waitForLine(containing: "state="), child.stdout)
        child.send("quit")
        XCTAssertEqual(child.waitForExit(timeout: 15), 0, child.stderr)
        let text = child.stdout + child.stderr
        XCTAssertFalse(text.contains("no audio track"), text)
        XCTAssertEqual(text.components(separatedBy: "Subtitles off").count - 1, 1, text)
        XCTAssertEqual(text.components(separatedBy: "Deutsch-mono").count - 1, 1, text)
    }

    /// The same in JSON: the command is answered with success and the selection follows.
    func testJSONTrackAudioSentAtStartIsAppliedOnceTracksAreKnown() throws {
        let child = try GstplayProcess(["--json", "--no-video", "--audio-sink", "fakeaudiosink", tracks]).started()
        child.send(#"{"command":["track","audio","1"],"request_id":"early"}"#)
        let reply = child.waitForJSON(timeout: 20) { $0["request_id"] as? String == "early" }
        XCTAssertEqual(reply?["error"] as? String, "success", "\(reply ?? [:])")
        let selected = child.waitForJSON(timeout: 20) { $0["event"] as? String == "track-selected" && $0["type"] as? String == "audio" }
        XCTAssertEqual(selected?["index"] as? Int, 1, child.stdout)
        child.send("quit")
        XCTAssertEqual(child.waitForExit(timeout: 15), 0, child.stderr)
    }

    /// With `--shuffle` the counter counts items as they play: (1/3), (2/3), (3/3), whatever
    /// their places on the command line ("(3/3)" came first).
    func testShuffleCountsItemsInPlayOrder() throws {
        let items = ["short-0.2s.mp4", "audio-only-4s.ogg", "gapless-440.ogg"].map(GstplayProcess.fixture)
        let run = try GstplayProcess.run(["--no-video", "--audio-sink", "fakeaudiosink", "--shuffle", "--start", "90%"] + items)
        XCTAssertEqual(run.status, 0, run.stderr)
        let counters = GstplayProcess.completeLines(run.stderr).filter { $0.hasPrefix("Now playing") }.compactMap { $0.split(separator: " ").last }
        XCTAssertEqual(counters, ["(1/3)", "(2/3)", "(3/3)"], run.stderr)
    }
}
