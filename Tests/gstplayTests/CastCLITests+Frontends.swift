import Foundation
import TestSupport
import XCTest

/// The other frontends drive the renderer while casting — MPRIS through
/// `playerctl` on a private session bus, the web remote through its HTTP API — and the renderer
/// follows, as a control point nobody here wrote (`upnp-client`) reads it.
extension CastCLITests {
    func testMPRISPausesAndSeeksTheRendererWhileCasting() throws {
        let lab = try makeLab()
        let renderer = try lab.startGMediaRender(name: "MPRIS GMR")
        let bus = try SessionBus.withPlayerctl()
        defer { bus.stop() }
        let child = try lab.gstplay(["--mpris", "--json", "--cast", "auto", "--cast-interface", lab.clientInterface, TestMedia.h264],
                                    environment: bus.environment()).started()
        defer { if child.process.isRunning { child.send("quit"); _ = child.waitForExit(timeout: 10) } }
        XCTAssertEqual(child.waitForJSON(timeout: 20, event("cast-started"))?["udn"] as? String, renderer.udn, child.stderr)
        XCTAssertTrue(lab.waitUntilRendering(renderer), "the renderer never reported the item's duration")
        // Paused then: the 10 s item must not end on the renderer before the checks (a loaded `make test`).
        XCTAssertTrue(eventually(timeout: .seconds(10), interval: .milliseconds(100)) {
            bus.playerctl("-l").contains("gstplay.instance\(child.process.processIdentifier)")
        }, "playerctl -l never listed gstplay; stderr: \(child.stderr)")

        bus.playerctl("-p", "gstplay", "pause")
        XCTAssertTrue(lab.waitForTransportState("PAUSED_PLAYBACK", on: renderer), "the renderer paused: \(lab.transportState(renderer) ?? "?")")
        XCTAssertTrue(eventually(timeout: .seconds(15), interval: .milliseconds(200)) { bus.playerctl("-p", "gstplay", "status") == "Paused" })

        let mark = child.stdoutLines.count
        bus.playerctl("-p", "gstplay", "position", "3")       // MPRIS SetPosition
        XCTAssertTrue(eventually(timeout: .seconds(15), interval: .milliseconds(250)) {
            abs((lab.positionInfo(renderer)?.position ?? -9) - 3) <= 1
        }, "renderer position after SetPosition 3: \(String(describing: lab.positionInfo(renderer)))")
        XCTAssertNotNil(child.waitForJSON(after: mark, timeout: 8) { [self] in
            $0["event"] as? String == "seek-done" && abs((number($0, "position") ?? -9) - 3) <= 1
        }, "seek-done near 3: \(child.stdout.suffix(600))")
        XCTAssertEqual(Double(bus.playerctl("-p", "gstplay", "position")) ?? -9, 3, accuracy: 1, "MPRIS Position shows the renderer's")

        bus.playerctl("-p", "gstplay", "play")
        XCTAssertTrue(lab.waitForTransportState("PLAYING", on: renderer), "the renderer plays again")
        XCTAssertTrue(eventually(timeout: .seconds(15), interval: .milliseconds(200)) { bus.playerctl("-p", "gstplay", "status") == "Playing" })
        child.send("quit")
        XCTAssertEqual(child.waitForExit(timeout: 10), 0, child.stderr)
    }

    func testWebRemotePausesAndSeeksTheRendererWhileCasting() throws {
        XCTAssertTrue(FileManager.default.isExecutableFile(atPath: RemoteSession.python), "no \(RemoteSession.python): run `make test-venv`")
        let lab = try makeLab()
        let renderer = try lab.startGMediaRender(name: "Remote GMR")
        let session = try RemoteSession(["--remote=0", "--cast", "auto", "--cast-interface", lab.clientInterface, TestMedia.h264])
        defer { session.stop() }
        XCTAssertEqual(session.child.waitForJSON(timeout: 20, event("cast-started"))?["udn"] as? String, renderer.udn, session.child.stderr)
        let command = { (line: String) -> Int? in
            session.client(["http", "POST", session.base + "/api/command", "--token", session.token, "--body", line]).json?["status"] as? Int
        }
        let status = { () -> [String: Any]? in
            let reply = session.client(["http", "GET", session.base + "/api/status", "--token", session.token]).json
            return ((reply?["body"] as? String).flatMap(jsonObject))?["data"] as? [String: Any]
        }

        XCTAssertTrue(lab.waitUntilRendering(renderer), "the renderer never reported the item's duration")
        XCTAssertEqual(command("pause"), 200)   // now: the 10 s item must not end on the renderer before the checks
        XCTAssertTrue(lab.waitForTransportState("PAUSED_PLAYBACK", on: renderer), "the renderer paused: \(lab.transportState(renderer) ?? "?")")
        XCTAssertTrue(eventually(timeout: .seconds(15), interval: .milliseconds(200)) { status()?["state"] as? String == "paused" },
                      "the remote's status: \(status() ?? [:])")

        XCTAssertEqual(command("seek 3"), 200)
        XCTAssertTrue(eventually(timeout: .seconds(15), interval: .milliseconds(250)) {
            abs((lab.positionInfo(renderer)?.position ?? -9) - 3) <= 1
        }, "renderer position after seek 3: \(String(describing: lab.positionInfo(renderer)))")
        XCTAssertTrue(eventually(timeout: .seconds(15), interval: .milliseconds(200)) {
            abs(((status()?["position"] as? NSNumber)?.doubleValue ?? -9) - 3) <= 1
        }, "the remote's status shows the renderer's position: \(status() ?? [:])")

        XCTAssertEqual(command("play"), 200)
        XCTAssertTrue(lab.waitForTransportState("PLAYING", on: renderer), "the renderer plays again")
        XCTAssertTrue(eventually(timeout: .seconds(15), interval: .milliseconds(200)) { status()?["state"] as? String == "playing" })
    }
}
