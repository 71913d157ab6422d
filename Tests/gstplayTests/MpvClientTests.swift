import Foundation
import Glibc
import TestSupport
import XCTest

/// Issue 24's "done means" for the socket: an mpv IPC client library from PyPI
/// (`python-mpv-jsonipc`, installed by `make test` into `.build/test-venv`) attached to a running
/// gstplay observes `time-pos` advancing, pauses, seeks (relative and absolute) and sets the volume;
/// gstplay's own `--json` events show the same.
final class MpvClientTests: XCTestCase {
    /// The venv's Python (`make test-venv`).
    static let python = TestMedia.root.appendingPathComponent(".build/test-venv/bin/python3").path

    func testPythonMpvClientObservesPausesAndSeeks() throws {
        XCTAssertTrue(FileManager.default.isExecutableFile(atPath: Self.python),
                      "no \(Self.python): run `make test-venv` (make test does) to install python-mpv-jsonipc")
        let path = ControlSocketTests.socketPath()
        let child = try ControlSocketTests.start(path)
        XCTAssertTrue(child.waitForLine(containing: #""to":"playing""#), child.stdout)

        let client = Process()
        client.executableURL = URL(fileURLWithPath: Self.python)
        client.arguments = [TestMedia.root.appendingPathComponent("Tests/Scripts/mpv_ipc_client.py").path, path]
        let out = Pipe(), err = Pipe()
        client.standardOutput = out
        client.standardError = err
        try client.run()
        let output = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        client.waitUntilExit()
        let errors = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        XCTAssertEqual(client.terminationStatus, 0, output + errors)

        let steps = Dictionary(output.split(separator: "\n").compactMap { jsonObject(String($0)) }.compactMap { step in
            (step["step"] as? String).map { ($0, step) }
        }, uniquingKeysWith: { first, _ in first })
        for name in ["observe", "get", "pause", "seek-relative", "seek-absolute", "volume", "resume"] {
            XCTAssertEqual(steps[name]?["ok"] as? Bool, true, "\(name): \(steps[name].map { "\($0)" } ?? "missing")\n\(output)\(errors)")
        }
        XCTAssertEqual(steps["get"]?["filename"] as? String, "h264-aac-10s.mp4")
        XCTAssertTrue(child.waitForLine(containing: #""to":"paused""#), "gstplay's own events show the pause")
        XCTAssertGreaterThanOrEqual(child.jsonLines.filter { $0["event"] as? String == "seek-done" }.count, 2, "and the seeks")
        kill(child.process.processIdentifier, SIGTERM)
        XCTAssertEqual(child.waitForExit(), 143)
        XCTAssertFalse(FileManager.default.fileExists(atPath: path))
    }
}
