import Backend
import BackendControl
import Foundation
import TestSupport
import XCTest
@testable import gstplay

/// With `--resume` the position is stored before gstplay exits, whatever the
/// path: Ctrl-C typed in a real terminal (raw mode, through a pty), SIGTERM, SIGHUP.
final class ResumeSignalTests: XCTestCase {
    private var stateHome = ""
    private let clip = GstplayProcess.fixture("h264-aac-10s.mp4")

    override func setUpWithError() throws {
        stateHome = NSTemporaryDirectory() + "gstplay-resume-signal-\(UUID().uuidString)"   // fresh: no state directory yet
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(atPath: stateHome) }

    private var environment: [String: String] {
        ProcessInfo.processInfo.environment.merging(["XDG_STATE_HOME": stateHome + "/state", "HOME": stateHome]) { $1 }
    }

    /// The stored positions (seconds) in the resume state file.
    private func storedPositions() throws -> [Double] {
        let text = try String(contentsOfFile: stateHome + "/state/gstplay/resume.json", encoding: .utf8)
        let state = try XCTUnwrap(jsonObject(text.replacingOccurrences(of: "\n", with: "")))
        return try XCTUnwrap(state["entries"] as? [[String: Any]]).compactMap { $0["position"] as? Double }
    }

    /// The last `0:00:SS / 0:00:10` time on the status line (whole seconds), nil before the first.
    private static func shownSeconds(_ screen: String) -> Int? {
        screen.components(separatedBy: " / 0:00:10").dropLast().last.flatMap { Int($0.suffix(2)) }
    }

    /// Ctrl-C typed on the terminal: gstplay runs under `script` (util-linux), which gives it a
    /// pty as its controlling terminal and copies our input to the pty's master, so the byte 0x03
    /// reaches the terminal's line discipline and becomes SIGINT for gstplay in raw mode.
    func testCtrlCTypedInATerminalStoresThePosition() throws {
        for run in 1...3 {
            try? FileManager.default.removeItem(atPath: stateHome)
            let child = GstplayProcess([], environment: environment)
            child.process.executableURL = URL(fileURLWithPath: "/usr/bin/script")
            child.process.arguments = ["-qefc", "exec '\(GstplayProcess.binary.path)' --resume '\(clip)'", "/dev/null"]
            try child.start()
            XCTAssertTrue(child.waitFor { out, _ in (Self.shownSeconds(out) ?? 0) >= 2 }, "run \(run): \(child.stdout)")
            let shown = Self.shownSeconds(child.stdout) ?? 0
            child.send(Data([0x03]))
            XCTAssertEqual(child.waitForExit(timeout: 10), 130, "run \(run): \(child.stdout.suffix(400))")
            let stored = try storedPositions()
            print("ResumeSignalTests: Ctrl-C run \(run): shown \(shown) s, stored \(stored)")
            XCTAssertEqual(stored.count, 1, "run \(run): one entry stored")
            XCTAssertGreaterThanOrEqual(stored.first ?? 0, Double(shown), "run \(run)")
        }
    }

    /// SIGTERM and SIGHUP (the terminal went away) store the position too, then exit 143 / 129.
    func testSIGTERMAndSIGHUPStoreThePosition() throws {
        for (signal, status) in [(SIGTERM, Int32(143)), (SIGHUP, 129)] {
            try? FileManager.default.removeItem(atPath: stateHome)
            let child = GstplayProcess(["--json", "--resume", clip], environment: environment)
            try child.start()
            XCTAssertTrue(child.waitFor { out, _ in
                GstplayProcess.completeLines(out).compactMap(jsonObject).contains { ($0["position"] as? Double ?? 0) >= 2 }
            }, child.stdout)
            kill(child.process.processIdentifier, signal)
            XCTAssertEqual(child.waitForExit(timeout: 10), status, child.stderr)
            let stored = try storedPositions()
            XCTAssertEqual(stored.count, 1, "signal \(signal): one entry stored")
            XCTAssertGreaterThanOrEqual(stored.first ?? 0, 2, "signal \(signal)")
        }
    }

    /// The exit-time save happens once: the CLI actor's save and the exit guard's never both
    /// write (the second would overwrite a fresh position with an older one).
    func testTheExitSaveIsMadeOnce() throws {
        let store = ResumeStore(directory: stateHome + "/once")
        let save = ResumeExitSave(store: store)
        XCTAssertNil(save.save(uri: "file:///a.mp4", position: MediaTime(seconds: 5), duration: MediaTime(seconds: 100)))
        XCTAssertNil(save.save(uri: "file:///a.mp4", position: MediaTime(seconds: 7), duration: MediaTime(seconds: 100)))
        XCTAssertEqual(try store.entries().map(\.position), [5])
    }
}
