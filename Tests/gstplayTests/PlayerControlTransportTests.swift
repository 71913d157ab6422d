import Backend
import BackendControl
import Foundation
import TestSupport
import XCTest

/// `PlayerControl`'s transports in-process, as an embedding app uses them, with a real player on
/// fake sinks: `serveConsole(input:output:)` (gstplay's JSON protocol on a pair of pipes, the app's
/// stdin and stdout) and `serveWebRemote(settings:)` (its HTTP API from a real client).
final class PlayerControlTransportTests: XCTestCase {
    func testAConsoleGetsHelloRepliesAndEventsAndQuitEndsUntilQuit() async throws {
        let player = Player.forTesting()
        defer { player.shutdown() }
        let control = PlayerControl(player: player)
        let input = Pipe(), output = Pipe()
        control.serveConsole(input: input.fileHandleForReading.fileDescriptor, output: output.fileHandleForWriting.fileDescriptor)
        let lines = LineCollector(output.fileHandleForReading)
        player.playNow(QueueItem(uri: try MediaLocation.uri(for: GstplayProcess.fixture("h264-aac-10s.mp4"))))

        XCTAssertTrue(lines.wait { $0.first?.contains(#""event":"hello""#) == true }, "hello comes first: \(lines.all)")
        XCTAssertTrue(lines.wait { $0.contains { $0.contains(#""to":"playing""#) } }, "the player's events: \(lines.all)")
        func send(_ line: String) { input.fileHandleForWriting.write(Data((line + "\n").utf8)) }

        send(#"{"command":["volume","40"],"request_id":1}"#)
        send(#"{"command":"status","request_id":2}"#)
        XCTAssertTrue(lines.wait { $0.contains { $0.contains(#""request_id":2"#) } }, "\(lines.all)")
        let status = try XCTUnwrap(lines.all.first { $0.contains(#""request_id":2"#) })
        XCTAssertTrue(status.contains(#""volume":40"#), status)
        XCTAssertTrue(lines.all.contains(#"{"data":null,"error":"success","request_id":1}"#), "\(lines.all)")

        send("no-such-command")
        XCTAssertTrue(lines.wait { $0.contains { $0.contains("unknown command") } }, "a bad line gets an error reply: \(lines.all)")

        send(#"{"command":"quit","request_id":3}"#)
        let code = await control.untilQuit()
        XCTAssertEqual(code, 0)
        XCTAssertTrue(lines.wait { $0.contains(#"{"data":null,"error":"success","request_id":3}"#) }, "quit is answered: \(lines.all)")
    }
}

extension PlayerControlTransportTests {
    func testAnAppServesTheWebRemoteAndItsAPIRunsCommandsBehindTheToken() throws {
        VenvScript.assertInstalled()
        let player = Player.forTesting()
        defer { player.shutdown() }
        let control = PlayerControl(player: player)
        let remote = try control.serveWebRemote(settings: RemoteSettings(port: 0))
        defer { remote.close() }
        player.playNow(QueueItem(uri: try MediaLocation.uri(for: GstplayProcess.fixture("h264-aac-10s.mp4"))))
        let parts = remote.url.components(separatedBy: "/#token=")
        XCTAssertEqual(parts.count, 2, remote.url)
        let (base, token) = (parts[0], parts[1])

        let refused = VenvScript.run("remote_clients.py", ["http", "GET", base + "/api/status"]).lastObject
        XCTAssertEqual(refused?["status"] as? Int, 401, "no token, no answer: \(refused ?? [:])")
        let volume = VenvScript.run("remote_clients.py", ["http", "POST", base + "/api/command", "--token", token, "--body", "volume 30"]).lastObject
        XCTAssertEqual(volume?["status"] as? Int, 200, "\(volume ?? [:])")
        let status = VenvScript.run("remote_clients.py", ["http", "GET", base + "/api/status", "--token", token]).lastObject
        XCTAssertEqual(status?["status"] as? Int, 200, "\(status ?? [:])")
        let body = try XCTUnwrap(status?["body"] as? String)
        let reply = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any], body)
        XCTAssertEqual((reply["data"] as? [String: Any])?["volume"] as? Double, 30, body)
    }
}

/// Lines read from a pipe on a thread of their own, kept in order. Any thread.
private final class LineCollector: @unchecked Sendable {
    private let condition = NSCondition()
    private var lines: [String] = []

    init(_ handle: FileHandle) {
        Thread.detachNewThread { [self] in
            var pending = Data()
            while true {
                let chunk = handle.availableData
                if chunk.isEmpty { return }
                pending.append(chunk)
                while let newline = pending.firstIndex(of: 0x0A) {
                    let line = String(decoding: pending[pending.startIndex..<newline], as: UTF8.self)
                    pending.removeSubrange(pending.startIndex...newline)
                    condition.lock(); lines.append(line); condition.broadcast(); condition.unlock()
                }
            }
        }
    }

    var all: [String] { condition.lock(); defer { condition.unlock() }; return lines }

    /// Waits (up to 20 s) until `predicate` holds for the lines so far.
    func wait(_ predicate: ([String]) -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(20)
        condition.lock(); defer { condition.unlock() }
        while !predicate(lines) {
            if !condition.wait(until: deadline) { return predicate(lines) }
        }
        return true
    }
}
