import Backend
import BackendControl
import Foundation
import TestSupport
import XCTest

/// An app's mpv socket (`PlayerControl.serveSocket(path:)`) as libmpv's clients expect it:
/// `observe_property` sends the value now, then each change, for `volume`, `pause`, `time-pos`,
/// `chapter` and `playlist-pos`; every reply carries its request's `request_id`, also for a
/// command sent with mpv's `"async": true` and for gstplay's own commands on the same socket.
final class SocketObserveTests: XCTestCase {
    func testObserversGetTheValueNowThenEachChangeAndEveryReplyCarriesItsRequestID() throws {
        let player = Player.forTesting()
        defer { player.shutdown() }
        let control = PlayerControl(player: player)
        let path = ControlSocketTests.socketPath()
        let socket = try control.serveSocket(path: path)
        defer { socket.close() }
        let client = try UnixSocketClient(path: path)
        let chapters = try MediaLocation.uri(for: GstplayProcess.fixture("chapters.mkv"))
        let second = try MediaLocation.uri(for: GstplayProcess.fixture("vp8-opus-4s.webm"))
        try player.setQueue([QueueItem(uri: chapters), QueueItem(uri: second)])

        func change(_ id: Int, after skip: Int = 0, _ matches: (Any?) -> Bool) -> [String: Any]? {
            client.waitForObject(timeout: 20, after: skip) { $0["event"] as? String == "property-change" && $0["id"] as? Int == id && matches($0["data"]) }
        }
        func request(_ id: Int, _ command: String, async: Bool = true) -> [String: Any]? {
            client.send(#"{"command":\#(command),"request_id":\#(id)\#(async ? #","async":true"# : "")}"#)
            return client.reply(to: id, timeout: 20)
        }
        let names = ["volume", "pause", "time-pos", "chapter", "playlist-pos"]
        for (index, name) in names.enumerated() {
            let reply = request(10 + index, #"["observe_property",\#(index + 1),"\#(name)"]"#, async: false)
            XCTAssertEqual(reply?["error"] as? String, "success", "\(name): \(client.lines)")
        }
        for (index, name) in names.enumerated() {                  // the value now (no `data` while unavailable), at once
            XCTAssertEqual(change(index + 1) { _ in true }?["name"] as? String, name, "\(client.lines)")
        }
        XCTAssertNotNil(change(1) { ($0 as? Double) == 100 }, "\(client.lines)")
        XCTAssertNotNil(change(2) { ($0 as? Bool) == false }, "\(client.lines)")
        XCTAssertNotNil(change(3) { $0 is Double }, "\(client.lines)")
        XCTAssertNotNil(change(4) { ($0 as? Int) == 0 }, "\(client.lines)")
        XCTAssertNotNil(change(5) { ($0 as? Int) == 0 }, "\(client.lines)")
        let firstTime = change(3) { $0 is Double }?["data"] as? Double ?? -1
        XCTAssertNotNil(change(3) { ($0 as? Double ?? -1) > firstTime }, "time-pos moves: \(client.lines)")

        XCTAssertEqual(request(20, #"["set_property","volume",50]"#)?["error"] as? String, "success", "async, answered with its id")
        XCTAssertNotNil(change(1) { ($0 as? Double) == 50 }, "\(client.lines)")
        XCTAssertEqual(request(21, #"["set_property","pause",true]"#)?["error"] as? String, "success")
        XCTAssertNotNil(change(2) { ($0 as? Bool) == true }, "\(client.lines)")
        XCTAssertEqual(request(22, #"["seek",4.5,"absolute"]"#)?["error"] as? String, "success", "an async seek, paused (the item cannot end meanwhile): \(client.lines)")
        XCTAssertNotNil(change(4) { ($0 as? Int) == 4 }, "the chapter at 4.5 s (Closing, the fifth of the flattened five): \(client.lines)")
        XCTAssertEqual(request(23, #"["playlist-next"]"#)?["error"] as? String, "success")
        XCTAssertNotNil(change(5) { ($0 as? Int) == 1 }, "\(client.lines)")
        XCTAssertEqual(request(24, #"["volume","30"]"#)?["error"] as? String, "success", "gstplay's own command: \(client.lines)")
        XCTAssertNotNil(change(1) { ($0 as? Double) == 30 }, "\(client.lines)")
    }
}
