import Foundation
import Glibc
import TestSupport
import XCTest

/// The A-B loop and frame steps through the mpv socket, driven by an mpv client library from
/// PyPI (`python-mpv-jsonipc`, in `.build/test-venv`) with mpv's names: `frame-step`,
/// `frame-back-step`, `ab-loop`, and the properties `ab-loop-a`, `ab-loop-b`, `ab-loop-count`.
final class MpvSteppingTests: XCTestCase {
    func testPythonMpvClientStepsFramesAndLoopsAToB() throws {
        XCTAssertTrue(FileManager.default.isExecutableFile(atPath: MpvClientTests.python),
                      "no \(MpvClientTests.python): run `make test-venv` (make test does) to install python-mpv-jsonipc")
        let path = ControlSocketTests.socketPath()
        let child = try ControlSocketTests.start(path)
        XCTAssertTrue(child.waitForLine(containing: #""to":"playing""#), child.stdout)

        let client = Process()
        client.executableURL = URL(fileURLWithPath: MpvClientTests.python)
        client.arguments = [TestMedia.root.appendingPathComponent("Tests/Scripts/mpv_stepping_client.py").path, path]
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
        for name in ["frame-steps", "ab-loop-set", "ab-loop-plays", "ab-loop-command"] {
            XCTAssertEqual(steps[name]?["ok"] as? Bool, true, "\(name): \(steps[name].map { "\($0)" } ?? "missing")\n\(output)\(errors)")
        }
        XCTAssertTrue(child.jsonLines.contains { $0["event"] as? String == "ab-loop" }, "gstplay's own events show the loop")
        kill(child.process.processIdentifier, SIGTERM)
        XCTAssertEqual(child.waitForExit(), 143)
    }
}
