import Foundation
import TestSupport
import XCTest

/// Every door reads the one player: volume and rate set through MPRIS (`playerctl`, `gdbus` — real
/// D-Bus clients on a private bus) are what the mpv socket's `get_property`, the stdin console's
/// `status`, the web remote's `/api/status` and the next volume key answer. Real gstplay, fake sinks.
final class OneStateCLITests: XCTestCase {
    private var bus: SessionBus!

    override func setUpWithError() throws { bus = try SessionBus.withPlayerctl() }

    override func tearDown() {
        bus?.stop()
        bus = nil
    }

    func testVolumeAndRateSetThroughMPRISAreWhatEveryOtherDoorReads() throws {
        VenvScript.assertInstalled()
        let socketPath = ControlSocketTests.socketPath()
        let remote = try RemoteSession(["--mpris", "--remote=0", "--input-ipc-server", socketPath, GstplayProcess.fixture("h264-aac-10s.mp4")],
                                       environment: bus.environment())
        defer { remote.stop() }
        let child = remote.child
        XCTAssertNotNil(child.waitForJSON { $0["event"] as? String == "state" && $0["to"] as? String == "playing" }, child.stderr)
        let busName = "org.mpris.MediaPlayer2.gstplay.instance\(child.process.processIdentifier)"
        XCTAssertTrue(eventually(timeout: .seconds(10), interval: .milliseconds(100)) {
            self.bus.playerctl("-l").contains("gstplay.instance\(child.process.processIdentifier)")
        }, child.stderr)
        let socket = try UnixSocketClient(path: socketPath)
        defer { socket.close() }

        bus.playerctl("-p", "gstplay", "volume", "0.3")
        let setRate = bus.run("gdbus", ["call", "--session", "--dest", busName, "--object-path", "/org/mpris/MediaPlayer2",
                                        "--method", "org.freedesktop.DBus.Properties.Set",
                                        "org.mpris.MediaPlayer2.Player", "Rate", "<1.5>"])
        XCTAssertEqual(setRate.status, 0, setRate.stderr)
        XCTAssertEqual(Double(bus.playerctl("-p", "gstplay", "volume")) ?? -1, 0.3, accuracy: 0.001, "MPRIS reads its own value back")

        // The JSON console on stdin: `status` (its volume is the cubic percent the keys step).
        let mark = child.stdoutLines.count
        child.send("status")
        let status = try XCTUnwrap(child.waitForJSON(after: mark) { ($0["data"] as? [String: Any])?["volume"] != nil }?["data"]
                                   as? [String: Any], child.stdout)
        let consoleVolume = try XCTUnwrap(status["volume"] as? Double, "\(status)")
        XCTAssertEqual(status["rate"] as? Double, 1.5, "the console's status: \(status)")

        // The socket, as an mpv client asks (the mpv protocol) and as a gstplay client asks.
        socket.send(#"{"command":["get_property","volume"],"request_id":1}"#)
        socket.send(#"{"command":["get_property","speed"],"request_id":2}"#)
        let mpvVolume = try XCTUnwrap(socket.reply(to: 1)?["data"] as? Double, socket.lines.joined(separator: "\n"))
        XCTAssertEqual(socket.reply(to: 2)?["data"] as? Double, 1.5, "mpv's speed")
        XCTAssertEqual(mpvVolume, consoleVolume, accuracy: 0.05, "the mpv socket and the console agree on the volume")
        XCTAssertLessThan(mpvVolume, 99, "not the 100 % of before MPRIS changed it")

        // The web remote's status (HTTP, with the token).
        let web = remote.client(["http", "GET", remote.base + "/api/status", "--token", remote.token]).json
        let webStatus = try XCTUnwrap(((web?["body"] as? String).flatMap(jsonObject))?["data"] as? [String: Any], "\(String(describing: web))")
        XCTAssertEqual(webStatus["volume"] as? Double ?? -1, consoleVolume, accuracy: 0.05, "the web remote agrees: \(webStatus)")
        XCTAssertEqual(webStatus["rate"] as? Double, 1.5)

        // The next volume key steps from that value, not from a copy of its own.
        let before = child.stdoutLines.count
        child.send("add volume 2")
        let changed = try XCTUnwrap(child.waitForJSON(after: before) { $0["event"] as? String == "volume" }, child.stdout)
        XCTAssertEqual(changed["volume"] as? Double ?? -1, consoleVolume + 2, accuracy: 0.15, "stepped from MPRIS's value: \(changed)")
    }
}
