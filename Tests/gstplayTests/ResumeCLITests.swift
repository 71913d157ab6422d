import Backend
import Foundation
import TestSupport
import XCTest

/// `--resume` / `--forget` through the gstplay binary: interrupt mid-file with
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
        XCTAssertEqual(warnings(child.stderr).count, 1, child.stderr)
        XCTAssertTrue(child.stderr.contains("gstplay: warning: resume state"), child.stderr)
        XCTAssertTrue(child.stderr.contains("was corrupt (not a JSON object): started a new one"), child.stderr)
        XCTAssertEqual(try String(contentsOfFile: stateFile + ".corrupt", encoding: .utf8), "not json", "the broken file is kept")
    }

    /// The `gstplay: warning:` lines of `stderr`.
    private func warnings(_ stderr: String) -> [String] {
        stderr.split(separator: "\n").map(String.init).filter { $0.hasPrefix("gstplay: warning:") }
    }

    /// A state file that cannot be read fails the read at load and the save at exit: one line.
    func testAReadWarningIsPrintedOnce() throws {
        try FileManager.default.createDirectory(atPath: stateFile, withIntermediateDirectories: true)
        let child = GstplayProcess(["--json", "--resume", GstplayProcess.fixture("short-0.2s.mp4")], environment: environment)
        try child.start()
        XCTAssertEqual(child.waitForExit(), 0, child.stderr)
        XCTAssertEqual(warnings(child.stderr).count, 1, child.stderr)
        XCTAssertTrue(child.stderr.contains("cannot read resume state"), child.stderr)
    }

    /// A newer gstplay's state file (`version: 999`) is left as it is, with one warning.
    func testANewerStateFileIsLeftAloneWithOneWarning() throws {
        try FileManager.default.createDirectory(atPath: stateHome + "/gstplay", withIntermediateDirectories: true)
        let uri = URL(fileURLWithPath: clip).absoluteString
        let contents = Data(#"{"version":999,"entries":[{"uri":"\#(uri)","position":3,"savedAt":1}]}"#.utf8)
        FileManager.default.createFile(atPath: stateFile, contents: contents)
        // Read at the load, refused at the exit's save: one line all the same.
        let child = GstplayProcess(["--json", "--resume", GstplayProcess.fixture("short-0.2s.mp4")], environment: environment)
        try child.start()
        XCTAssertEqual(child.waitForExit(), 0, child.stderr)
        XCTAssertEqual(warnings(child.stderr).count, 1, child.stderr)
        XCTAssertTrue(child.stderr.contains("is of format version 999, newer than this gstplay reads (1): left as it is, and not used"), child.stderr)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: stateFile)), contents, "the file is untouched")
        XCTAssertFalse(FileManager.default.fileExists(atPath: stateFile + ".corrupt"))
    }

    /// Impossible positions are not believed: no "resuming … at -0:00:50.0"; the good entry of
    /// the same file still resumes; one line says what was dropped.
    func testImpossiblePositionsAreDroppedAndTheGoodOneResumes() throws {
        try FileManager.default.createDirectory(atPath: stateHome + "/gstplay", withIntermediateDirectories: true)
        let short = GstplayProcess.fixture("short-0.2s.mp4")
        var entries: [[String: Any]] = []
        for (path, position) in [(clip, 2.5), (short, -50.0), (GstplayProcess.fixture("vp8-opus-4s.webm"), 1e300)] {
            let info = try FileManager.default.attributesOfItem(atPath: path)
            let mtime = Int64(try XCTUnwrap(info[.modificationDate] as? Date).timeIntervalSince1970)
            entries.append(["uri": URL(fileURLWithPath: path).absoluteString, "size": try XCTUnwrap(info[.size] as? Int), "mtime": mtime,
                            "position": position, "savedAt": 1])
        }
        try JSONSerialization.data(withJSONObject: ["version": 1, "entries": entries]).write(to: URL(fileURLWithPath: stateFile))
        let child = GstplayProcess(["--json", "--resume", "--no-gapless", short, clip], environment: environment)
        try child.start()
        XCTAssertTrue(child.waitFor { _, err in err.contains("gstplay: resuming \(self.clip) at 0:00:02.5") }, child.stderr)
        child.send("quit")
        XCTAssertEqual(child.waitForExit(), 0, child.stderr)
        XCTAssertFalse(child.stderr.contains("resuming \(short)"), child.stderr)
        XCTAssertEqual(warnings(child.stderr).count, 1, child.stderr)
        XCTAssertTrue(child.stderr.contains("dropped 2 of 3 entries"), child.stderr)
    }
}
