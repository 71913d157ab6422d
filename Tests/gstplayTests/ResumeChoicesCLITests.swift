import Backend
import Foundation
import TestSupport
import XCTest

/// `--resume` remembers the choices as well as the position (mpv's watch-later), and
/// `--watch-later-options` picks which: through the gstplay binary on `tracks.mkv` (two audio
/// tracks), real pipelines, fake sinks.
final class ResumeChoicesCLITests: XCTestCase {
    private var stateHome = ""
    private let clip = GstplayProcess.fixture("tracks.mkv")

    override func setUpWithError() throws {
        stateHome = NSTemporaryDirectory() + "gstplay-resume-choices-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: stateHome, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(atPath: stateHome) }

    private var environment: [String: String] {
        ProcessInfo.processInfo.environment.merging(["XDG_STATE_HOME": stateHome]) { $1 }
    }

    /// The JSON objects of `stdout`'s complete lines.
    private func objects(_ stdout: String) -> [[String: Any]] { GstplayProcess.completeLines(stdout).compactMap(jsonObject) }
    private func events(_ stdout: String, _ name: String) -> [[String: Any]] { objects(stdout).filter { $0["event"] as? String == name } }
    /// The data of the `status` replies.
    private func statuses(_ stdout: String) -> [[String: Any]] {
        objects(stdout).compactMap { $0["data"] as? [String: Any] }.filter { $0["muted"] != nil && $0["rate"] != nil }
    }

    /// The one stored entry's `settings` object.
    private func storedSettings() throws -> [String: Any] {
        let text = try String(contentsOfFile: stateHome + "/gstplay/resume.json", encoding: .utf8)
        let state = try XCTUnwrap(jsonObject(text.replacingOccurrences(of: "\n", with: "")))
        let entries = try XCTUnwrap(state["entries"] as? [[String: Any]])
        XCTAssertEqual(entries.count, 1, text)
        return entries.first?["settings"] as? [String: Any] ?? [:]
    }

    /// First run: pause at 1.5 s and change every choice through the console, then quit.
    private func playAndChangeEverything() throws {
        let first = GstplayProcess(["--json", "--resume", clip], environment: environment)
        try first.start()
        XCTAssertTrue(first.waitFor { out, _ in !self.events(out, "position").isEmpty }, first.stdout + first.stderr)
        for line in ["pause", "seek 1.5", "ab-loop 1 3", "volume 40", "mute on", "rate 1.5", "track audio 1", "sub-offset 250",
                     "status"] {
            // One at a time: each command's reply before the next.
            let replies = objects(first.stdout).filter { $0["error"] != nil }.count
            first.send(line)
            XCTAssertTrue(first.waitFor { out, _ in self.objects(out).filter { $0["error"] != nil }.count > replies }, "\(line): \(first.stdout)")
        }
        XCTAssertTrue(first.waitFor { out, _ in !self.statuses(out).isEmpty }, first.stdout + first.stderr)
        first.send("quit")
        XCTAssertEqual(first.waitForExit(), 0, first.stderr)
    }

    func testResumeRestoresVolumeMuteSpeedTracksSubtitleDelayAndABLoop() throws {
        try playAndChangeEverything()

        let second = GstplayProcess(["--json", "--resume", clip], environment: environment)
        try second.start()
        XCTAssertTrue(second.waitFor { out, _ in
            self.events(out, "ab-loop").contains { $0["a"] as? Double == 1 && $0["b"] as? Double == 3 }
        }, second.stdout + second.stderr)
        // Quit only once playing from the resumed place: a run left near the start saves no entry.
        XCTAssertTrue(second.waitFor { out, _ in self.events(out, "position").contains { ($0["position"] as? Double ?? 0) >= 1 } },
                      second.stdout + second.stderr)
        second.send("pause")
        second.send("status")
        XCTAssertTrue(second.waitFor { out, _ in !self.statuses(out).isEmpty }, second.stdout)
        second.send("quit")
        XCTAssertEqual(second.waitForExit(), 0, second.stderr)

        XCTAssertTrue(second.stderr.contains("gstplay: resuming \(clip) at "), second.stderr)
        let status = try XCTUnwrap(statuses(second.stdout).last)
        XCTAssertEqual(try XCTUnwrap(status["volume"] as? Double), 40, accuracy: 0.5, "volume restored")
        XCTAssertEqual(status["muted"] as? Bool, true, "mute restored")
        XCTAssertEqual(status["rate"] as? Double, 1.5, "speed restored")
        let audio = events(second.stdout, "track-selected").filter { $0["type"] as? String == "audio" }
        XCTAssertEqual(audio.last?["index"] as? Int, 1, "audio track restored: \(second.stdout)")
        // The second run changed nothing: what it saved again is what it restored.
        let saved = try storedSettings()
        XCTAssertEqual(saved["sub-delay-ms"] as? Int, 250, "subtitle delay restored: \(saved)")
        XCTAssertEqual(saved["aid"] as? Int, 1, "\(saved)")
        XCTAssertEqual(saved["speed"] as? Double, 1.5, "\(saved)")
    }

    func testWatchLaterOptionsRestoresOnlyThoseListed() throws {
        try playAndChangeEverything()

        let second = GstplayProcess(["--json", "--resume", "--watch-later-options=start,volume", clip], environment: environment)
        try second.start()
        XCTAssertTrue(second.waitFor { out, _ in !self.events(out, "position").isEmpty }, second.stdout + second.stderr)
        second.send("pause")
        second.send("status")
        XCTAssertTrue(second.waitFor { out, _ in !self.statuses(out).isEmpty }, second.stdout)
        second.send("quit")
        XCTAssertEqual(second.waitForExit(), 0, second.stderr)

        XCTAssertTrue(second.stderr.contains("gstplay: resuming \(clip) at "), "start restored: \(second.stderr)")
        let status = try XCTUnwrap(statuses(second.stdout).last)
        XCTAssertEqual(try XCTUnwrap(status["volume"] as? Double), 40, accuracy: 0.5, "volume restored")
        XCTAssertEqual(status["muted"] as? Bool, false, "mute not restored")
        XCTAssertEqual(status["rate"] as? Double, 1, "speed not restored")
        XCTAssertFalse(events(second.stdout, "ab-loop").contains { $0["a"] as? Double == 1 }, "A-B loop not restored")
        XCTAssertFalse(events(second.stdout, "track-selected").contains { $0["type"] as? String == "audio" && $0["index"] as? Int == 1 },
                       "audio track not restored")
        XCTAssertEqual(Set(try storedSettings().keys), ["volume"], "only the listed choices are saved")
    }

    func testAnUnknownWatchLaterOptionIsOneErrorLineAndExit2() throws {
        let run = try GstplayProcess.run(["--resume", "--watch-later-options=start,colour", clip], environment: environment)
        XCTAssertEqual(run.status, 2, run.stderr)
        let lines = run.stderr.split(separator: "\n").filter { $0.contains("watch-later-options") }
        XCTAssertEqual(lines.count, 1, run.stderr)
        XCTAssertTrue(run.stderr.hasPrefix("gstplay: error: --watch-later-options: unknown name 'colour' (expected some of start,volume,"), run.stderr)
    }
}
