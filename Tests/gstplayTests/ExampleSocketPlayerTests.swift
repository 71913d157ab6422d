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

    /// An app serving the socket gets the event lines gstplay's socket clients get, also those the
    /// protocol adds to the player's events: for an HTTP item that buffers (served slowly, then
    /// at full speed), the `buffering` levels and their `message` lines ("Buffering N%", then
    /// "Buffering complete"), for both.
    func testTheAppsSocketGetsTheBufferingMessagesGstplaysDoes() throws {
        let server = try HTTPTestServer()
        defer { server.stop() }
        let file = "/file/vp8-opus-4s.webm"
        for product in ["gstplay", "ExampleSocketPlayer"] {
            XCTAssertTrue(server.throttle(file, bytesPerSecond: 3000))
            let path = ControlSocketTests.socketPath()
            let arguments = product == "gstplay" ? ["-q", "--no-cache", "--input-ipc-server", path, server.url(file)] : [server.url(file), path]
            let child = try GstplayProcess(arguments, product: product).started()
            let client = try UnixSocketClient(path: path)
            let buffering = client.waitForObject(timeout: 40) { $0["event"] as? String == "buffering" && ($0["percent"] as? Int ?? 100) < 100 }
            XCTAssertNotNil(buffering, "\(product): a level below 100 %: \(client.lines)\n\(child.stderr)")
            XCTAssertTrue(server.throttle(file, bytesPerSecond: nil))
            let complete = client.waitForObject(timeout: 40) { $0["event"] as? String == "message" && $0["text"] as? String == "Buffering complete" }
            XCTAssertNotNil(complete, "\(product): \(client.lines)\n\(child.stderr)")
            let levels = client.objects.compactMap { $0["event"] as? String == "message" ? $0["text"] as? String : nil }
            XCTAssertTrue(levels.contains { $0.hasPrefix("Buffering ") && $0.hasSuffix("%") }, "\(product): \(levels)")
            client.send(#"{"command":["quit"]}"#)
            XCTAssertEqual(child.waitForExit(timeout: 40), 0, "\(product): \(child.stderr)")
        }
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
