import Foundation
import Glibc
import TestSupport
import XCTest

/// The A-B loop and frame steps through the mpv socket, driven by an mpv client library from
/// PyPI (`python-mpv-jsonipc`, in `.build/test-venv`) with mpv's names: `frame-step`,
/// `frame-back-step`, `ab-loop`, and the properties `ab-loop-a`, `ab-loop-b`, `ab-loop-count`.
final class MpvSteppingTests: XCTestCase {
    func testPythonMpvClientStepsFramesAndLoopsAToB() throws {
        VenvScript.assertInstalled()
        let path = ControlSocketTests.socketPath()
        let child = try ControlSocketTests.start(path)
        XCTAssertTrue(child.waitForLine(containing: #""to":"playing""#), child.stdout)

        let client = VenvScript.run("mpv_stepping_client.py", [path])
        XCTAssertEqual(client.status, 0, client.transcript)
        let steps = client.steps
        for name in ["frame-steps", "ab-loop-set", "ab-loop-plays", "ab-loop-command"] {
            XCTAssertEqual(steps[name]?["ok"] as? Bool, true, "\(name): \(steps[name].map { "\($0)" } ?? "missing")\n\(client.transcript)")
        }
        XCTAssertTrue(child.jsonLines.contains { $0["event"] as? String == "ab-loop" }, "gstplay's own events show the loop")
        kill(child.process.processIdentifier, SIGTERM)
        XCTAssertEqual(child.waitForExit(), 143)
    }
}
