import Foundation
import Glibc
import TestSupport
import XCTest

/// Sources/ExampleSocketPlayer, an app that embeds `Backend` and serves the mpv socket with
/// `BackendControl` (`PlayerControl(player:)`, `serveSocket(path:)`, `untilQuit()`), outside the
/// CLI: an mpv IPC client library from PyPI (`python-mpv-jsonipc`, in `.build/test-venv`) observes
/// `time-pos`, reads and sets `volume`, pauses and resumes, and ends it with `quit 3`.
final class ExampleSocketPlayerTests: XCTestCase {
    func testPythonMpvClientDrivesTheEmbeddingExample() throws {
        VenvScript.assertInstalled()
        let path = ControlSocketTests.socketPath()
        let child = try GstplayProcess([GstplayProcess.fixture("h264-aac-10s.mp4"), path], product: "ExampleSocketPlayer").started()
        XCTAssertTrue(child.waitForLine(containing: "serving \(path)"), child.stdout + child.stderr)

        let client = VenvScript.run("example_socket_client.py", [path])
        XCTAssertEqual(client.status, 0, client.transcript)
        let steps = client.steps
        for name in ["observe", "volume", "pause", "resume", "quit"] {
            XCTAssertEqual(steps[name]?["ok"] as? Bool, true, "\(name): \(steps[name].map { "\($0)" } ?? "missing")\n\(client.transcript)")
        }
        XCTAssertEqual(child.waitForExit(), 3, "the app ends with the code `quit` asked for\n\(child.stderr)")
        XCTAssertFalse(FileManager.default.fileExists(atPath: path), "the socket file is removed")
    }

    func testBadArgumentsAndAPathThatIsNotASocketEachGetOneLine() throws {
        let usage = try Self.run([])
        XCTAssertEqual(usage.status, 2)
        XCTAssertEqual(usage.stderr, "usage: ExampleSocketPlayer <file-or-uri> <socket-path>\n")

        let file = NSTemporaryDirectory() + "not-a-socket-" + String(UUID().uuidString.prefix(8))
        XCTAssertTrue(FileManager.default.createFile(atPath: file, contents: Data("keep".utf8)))
        let refused = try Self.run([GstplayProcess.fixture("short-0.2s.mp4"), file])
        XCTAssertEqual(refused.status, 4)
        XCTAssertEqual(refused.stderr, "error: \(file): exists and is not a socket (not replaced)\n")
        XCTAssertEqual(try String(contentsOfFile: file, encoding: .utf8), "keep", "never replaced")
    }

    /// The example run to its end with `arguments` (stdin /dev/null).
    private static func run(_ arguments: [String]) throws -> (status: Int32?, stdout: String, stderr: String) {
        let child = GstplayProcess(arguments, product: "ExampleSocketPlayer", input: .devNull)
        try child.start()
        let status = child.waitForExit()
        return (status, child.stdout, child.stderr)
    }
}
