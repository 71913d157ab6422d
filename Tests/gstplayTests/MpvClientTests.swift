import Foundation
import Glibc
import TestSupport
import XCTest

/// The control socket with a client nobody here wrote: an mpv IPC client library from PyPI
/// (`python-mpv-jsonipc`, installed by `make test` into `.build/test-venv`) attached to a running
/// gstplay observes `time-pos` advancing, pauses, seeks (relative and absolute) and sets the volume;
/// gstplay's own `--json` events show the same.
final class MpvClientTests: XCTestCase {
    func testPythonMpvClientObservesPausesAndSeeks() throws {
        VenvScript.assertInstalled()
        let path = ControlSocketTests.socketPath()
        let child = try ControlSocketTests.start(path)
        XCTAssertTrue(child.waitForLine(containing: #""to":"playing""#), child.stdout)

        let client = VenvScript.run("mpv_ipc_client.py", [path])
        XCTAssertEqual(client.status, 0, client.transcript)
        let steps = client.steps
        for name in ["observe", "get", "pause", "seek-relative", "seek-absolute", "volume", "resume"] {
            XCTAssertEqual(steps[name]?["ok"] as? Bool, true, "\(name): \(steps[name].map { "\($0)" } ?? "missing")\n\(client.transcript)")
        }
        XCTAssertEqual(steps["get"]?["filename"] as? String, "h264-aac-10s.mp4")
        XCTAssertTrue(child.waitForLine(containing: #""to":"paused""#), "gstplay's own events show the pause")
        XCTAssertGreaterThanOrEqual(child.jsonLines.filter { $0["event"] as? String == "seek-done" }.count, 2, "and the seeks")
        kill(child.process.processIdentifier, SIGTERM)
        XCTAssertEqual(child.waitForExit(), 143)
        XCTAssertFalse(FileManager.default.fileExists(atPath: path))
    }
}
