import Foundation
import Glibc
import Synchronization
import TestSupport
import XCTest
@testable import BackendControl
@testable import gstplay

/// The inbound side of the control socket: a client that floods requests (and reads its replies, so
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

        // 8,000 `stats` requests (each waits for the player's loop thread) in one write: their
        // replies (64 answers, ~7,900 refusals of ~95 bytes) stay under the socket's 1 MiB outbox
        // limit even if this client read none of them, so it is never dropped as a reader that
        // does not read, whatever the load (20,000 made ~1.9 MB: dropped under ASan and load). How
        // many may be queued ahead of another client is ControlHub's cap, checked by count in
        // testOneClientHasAtMostTheCapQueuedAndOthersGetIn; here: the other client is answered,
        // playback goes on and the flooder gets its refusals (no wall-clock bound: under the
        // whole suite's load on two cores, reading the flood itself takes seconds).
        let burst = (1...8_000).map { #"{"command": "stats", "request_id": \#($0)}"# }.joined(separator: "\n") + "\n"
        XCTAssertTrue(flooder.send(Data(burst.utf8)), "the burst could not be written (errno \(errno)); closed by the server: \(flooder.isClosedByServer)")
        let asked = Date()
        other.send(#"{"command": "status", "request_id": 1}"#)
        let status = try XCTUnwrap(other.reply(to: 1, timeout: 60), "the other client is not answered (closed by the server: "
                                   + "\(other.isClosedByServer), gstplay running: \(child.process.isRunning), flooder closed: \(flooder.isClosedByServer)); "
                                   + "stderr: \(child.stderr.suffix(2000)); stdout's end: \(child.stdout.suffix(3000))")
        print(String(format: "the other client's status reply came after %.3f s", Date().timeIntervalSince(asked)))
        let position = ((status["data"] as? [String: Any])?["position"] as? Double) ?? 0
        XCTAssertNotNil(child.waitForJSON(timeout: 3) { $0["event"] as? String == "position" && ($0["position"] as? Double ?? 0) >= position + 0.75 },
                        "position events stopped during the flood")
        let refused = flooder.waitForObject(timeout: 20) { ($0["error"] as? String)?.hasPrefix("too many requests in flight") == true }
        XCTAssertNotNil(refused?["request_id"] as? Int, "a refused request keeps its request_id: \(String(describing: refused))")
        XCTAssertFalse(flooder.isClosedByServer, "the flooding client, which reads, stays connected")
    }

    /// The cap by count, with no timing: of 1,000 requests one client sends while none finishes,
    /// exactly ``ControlHub/maxInFlight`` reach the inbox and the rest are refused at once with
    /// their request_id; another client's request still gets in, and a finished request frees a slot.
    func testOneClientHasAtMostTheCapQueuedAndOthersGetIn() {
        let inbox = Inbox()
        let hub = ControlHub(inbox: inbox, log: { _ in })
        let flooder = RecordingConnection(), other = RecordingConnection()
        let flooderID = hub.connect(flooder, dialect: .gstplayAndMpv)
        let otherID = hub.connect(other, dialect: .gstplayAndMpv)
        for id in 1...1_000 { hub.received(#"{"command": "stats", "request_id": \#(id)}"#, from: flooderID) }
        hub.received(#"{"command": "status", "request_id": 7}"#, from: otherID)
        hub.finished(flooderID)
        hub.received(#"{"command": "stats", "request_id": 1001}"#, from: flooderID)
        hub.received(#"{"command": "stats", "request_id": 1002}"#, from: flooderID)

        let refusals = flooder.lines.filter { $0.contains("too many requests in flight") }
        XCTAssertEqual(refusals.count, 1_000 - ControlHub.maxInFlight + 1, "refused: all beyond the cap, then 1002 once 1001 took the freed slot")
        XCTAssertTrue(refusals.first?.contains(#""request_id":\#(ControlHub.maxInFlight + 1)"#) ?? false, refusals.first ?? "none")
        XCTAssertFalse(other.lines.contains { $0.contains("too many") }, "the other client is refused nothing: \(other.lines)")
        let expected = ControlHub.maxInFlight + 2   // the cap, the other client's, 1001
        let collected = Mutex<[(ControlClientID, String)]>([])
        let done = expectation(description: "the inbox holds the admitted requests")
        let reader = Task {
            for await input in inbox.stream {
                guard case .request(let id, let line) = input else { continue }
                if collected.withLock({ $0.append((id, line)); return $0.count }) == expected { done.fulfill() }
            }
        }
        wait(for: [done], timeout: 30)
        reader.cancel()
        let queued = collected.withLock { $0 }
        XCTAssertEqual(queued.filter { $0.0 == flooderID }.count, ControlHub.maxInFlight + 1)
        XCTAssertEqual(queued.firstIndex { $0.0 == otherID }, ControlHub.maxInFlight, "the other client's request comes right after the cap's worth")
        XCTAssertTrue(queued.last?.1.contains("1001") ?? false)
    }
}

/// A ``ControlConnection`` that keeps every line delivered to it.
private final class RecordingConnection: ControlConnection {
    private let store = Mutex<[String]>([])
    var lines: [String] { store.withLock { $0 } }
    func deliver(_ line: String) { store.withLock { $0.append(line) } }
    func disconnect() {}
}
