import Foundation
import Glibc
import TestSupport
import XCTest

/// Issue 24 item 2, the inbound side: a client that floods requests (and reads its replies, so
/// the outbox limit never drops it) is bounded per client (`ControlHub.maxInFlight`): the rest of
/// its burst is answered with `error` replies at once, and another client's replies and the
/// player's position events keep coming.
final class ControlFloodTests: XCTestCase {
    func testAFloodingClientDoesNotHoldBackOtherClientsOrPlayback() throws {
        let path = ControlSocketTests.socketPath()
        let child = try ControlSocketTests.start(path)
        defer { kill(child.process.processIdentifier, SIGKILL); _ = child.waitForExit(timeout: 10) }
        let flooder = try UnixSocketClient(path: path, timeout: 30)
        let other = try UnixSocketClient(path: path)
        XCTAssertNotNil(flooder.waitForObject { $0["event"] as? String == "hello" })
        XCTAssertNotNil(other.waitForObject { $0["event"] as? String == "hello" })
        XCTAssertTrue(child.waitForLine(containing: #""to":"playing""#), child.stdout)

        // 20,000 `stats` requests (each waits for the player's loop thread) in one write.
        let burst = (1...20_000).map { #"{"command": "stats", "request_id": \#($0)}"# }.joined(separator: "\n") + "\n"
        XCTAssertTrue(flooder.send(Data(burst.utf8)))
        let asked = Date()
        other.send(#"{"command": "status", "request_id": 1}"#)
        let status = try XCTUnwrap(other.reply(to: 1, timeout: 5), "the other client is not answered")
        let waited = Date().timeIntervalSince(asked)
        print("the other client's status reply came after \(String(format: "%.3f", waited)) s")
        XCTAssertLessThan(waited, 1.5, "the other client waited behind the flood")
        let position = ((status["data"] as? [String: Any])?["position"] as? Double) ?? 0
        XCTAssertNotNil(child.waitForJSON(timeout: 3) { $0["event"] as? String == "position" && ($0["position"] as? Double ?? 0) >= position + 0.75 },
                        "position events stopped during the flood")
        let refused = flooder.waitForObject(timeout: 20) { ($0["error"] as? String)?.hasPrefix("too many requests in flight") == true }
        XCTAssertNotNil(refused?["request_id"] as? Int, "a refused request keeps its request_id: \(String(describing: refused))")
        XCTAssertFalse(flooder.isClosedByServer, "the flooding client, which reads, stays connected")
    }
}
