import Backend
import Foundation
import TestSupport
import XCTest

/// `--resume` / `--forget` through the gstplay binary (issue #12): interrupt mid-file with
/// SIGINT, start again with `--resume`, land within 0.5 s of where it was left.
final class ResumeCLITests: XCTestCase {
    private var stateHome = ""
    private let clip = GstplayProcess.fixture("h264-aac-10s.mp4")

    override func setUpWithError() throws {
        stateHome = NSTemporaryDirectory() + "gstplay-resume-cli-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: stateHome, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(atPath: stateHome) }

    private var environment: [String: String] {
        ProcessInfo.processInfo.environment.merging(["XDG_STATE_HOME": stateHome]) { $1 }
    }
    private var stateFile: String { stateHome + "/gstplay/resume.json" }

    /// Positions (seconds) of the `position` events in `stdout` (complete lines).
    private func positions(_ stdout: String) -> [Double] {
        GstplayProcess.completeLines(stdout).compactMap(jsonObject).filter { $0["event"] as? String == "position" }
            .compactMap { $0["position"] as? Double }
    }
    private func positions(_ child: GstplayProcess) -> [Double] { positions(child.stdout) }

    func testResumeRestoresThePositionLeftAtSIGINT() throws {
        let first = GstplayProcess(["--json", "--resume", clip], environment: environment)
        try first.start()
        XCTAssertTrue(first.waitFor { out, _ in (self.positions(out).last ?? 0) >= 3.0 }, first.stdout)
        first.process.interrupt()
        XCTAssertEqual(first.waitForExit(), 130)
        let left = try XCTUnwrap(positions(first).last)

        let state = try XCTUnwrap(jsonObject(String(contentsOfFile: stateFile, encoding: .utf8).replacingOccurrences(of: "\n", with: "")))
        let entries = try XCTUnwrap(state["entries"] as? [[String: Any]])
        XCTAssertEqual(entries.count, 1)
        let saved = try XCTUnwrap(entries.first?["position"] as? Double)
        XCTAssertEqual(saved, left, accuracy: 0.5, "the stored position is where playback was")
        XCTAssertEqual(entries.first?["uri"] as? String, URL(fileURLWithPath: clip).absoluteString)

        let second = GstplayProcess(["--json", "--resume", clip], environment: environment)
        try second.start()
        XCTAssertTrue(second.waitFor { out, _ in !self.positions(out).isEmpty }, second.stdout)
        XCTAssertTrue(second.stderr.contains("gstplay: resuming \(clip) at "), second.stderr)
        let resumed = try XCTUnwrap(positions(second).first)
        print("ResumeCLITests: left at \(left) s (stored \(saved) s), resumed at \(resumed) s")
        XCTAssertEqual(resumed, left, accuracy: 0.5, "resumed within 0.5 s of where it was left")
        second.send("quit")
        XCTAssertEqual(second.waitForExit(), 0)

        // Without --resume nothing is restored (playback starts at 0).
        let plain = GstplayProcess(["--json", clip], environment: environment)
        try plain.start()
        XCTAssertTrue(plain.waitFor { out, _ in !self.positions(out).isEmpty }, plain.stdout)
        XCTAssertLessThan(try XCTUnwrap(positions(plain).first), 1.0)
        plain.send("quit")
        XCTAssertEqual(plain.waitForExit(), 0)
    }

    func testEveryQueueItemResumesAndItemsPlayedToTheEndAreForgotten() throws {
        let tones = ["gapless-440.ogg", "gapless-660.ogg"].map(GstplayProcess.fixture)
        let store = ResumeStore(directory: stateHome + "/gstplay")
        for tone in tones { try store.save(uri: URL(fileURLWithPath: tone).absoluteString, position: .milliseconds(400), duration: MediaTime(seconds: 1)) }
        XCTAssertEqual(try store.entries().count, 2)
        let child = GstplayProcess(["--json", "--resume"] + tones, input: .devNull, environment: environment)
        try child.start()
        XCTAssertEqual(child.waitForExit(), 0, child.stderr)
        let result = (stdout: child.stdout, stderr: child.stderr)
        for tone in tones { XCTAssertTrue(result.stderr.contains("gstplay: resuming \(tone) at 0:00:00.4"), result.stderr) }
        let seeks = GstplayProcess.completeLines(result.stdout).compactMap(jsonObject).filter { $0["event"] as? String == "seek-done" }
            .compactMap { $0["position"] as? Double }
        XCTAssertEqual(seeks.count, 2, "each item started at its stored position: \(seeks)")
        for seek in seeks { XCTAssertEqual(seek, 0.4, accuracy: 0.05) }
        XCTAssertEqual(try store.entries(), [], "both played to their end: forgotten")
    }

    func testForgetClearsTheStateFile() throws {
        try FileManager.default.createDirectory(atPath: stateHome + "/gstplay", withIntermediateDirectories: true)
        FileManager.default.createFile(atPath: stateFile, contents: Data(#"{"version":1,"entries":[]}"#.utf8))
        let child = GstplayProcess(["--forget"], input: .devNull, environment: environment)
        try child.start()
        XCTAssertEqual(child.waitForExit(), 0, child.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: stateFile))
    }

    func testACorruptStateFileWarnsAndPlaysFromTheStart() throws {
        try FileManager.default.createDirectory(atPath: stateHome + "/gstplay", withIntermediateDirectories: true)
        FileManager.default.createFile(atPath: stateFile, contents: Data("not json".utf8))
        let child = GstplayProcess(["--json", "--resume", GstplayProcess.fixture("short-0.2s.mp4")], environment: environment)
        try child.start()
        XCTAssertEqual(child.waitForExit(), 0, child.stderr)
        XCTAssertTrue(child.stderr.contains("gstplay: warning: resume state"), child.stderr)
        XCTAssertTrue(child.stderr.contains("is corrupt"), child.stderr)
        XCTAssertTrue(FileManager.default.fileExists(atPath: stateFile + ".corrupt"), "the broken file is kept")
    }
}
