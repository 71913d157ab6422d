import Foundation
import TestSupport
import XCTest

/// Casting end to end through the built `gstplay`: real renderers (gmediarender, Rygel) in a
/// ``RendererLab``, gstplay on the lab's client side driven over stdin with `--json`, and the
/// renderers' own state read with a control point nobody here wrote (`upnp-client`).
final class CastCLITests: XCTestCase {
    func makeLab(_ side: RendererLab.ClientSide = .host) throws -> RendererLab {
        XCTAssertTrue(FileManager.default.isExecutableFile(atPath: RendererLab.upnpClient),
                      "no \(RendererLab.upnpClient): run `make test-venv` (make test does)")
        let lab = try RendererLab(client: side)
        addTeardownBlock { lab.tearDown() }
        return lab
    }

    func event(_ name: String) -> ([String: Any]) -> Bool { { $0["event"] as? String == name } }

    func number(_ object: [String: Any]?, _ key: String) -> Double? { (object?[key] as? NSNumber)?.doubleValue }

    /// gstplay `--json --cast auto` on `media`, once `cast-started` names `renderer`.
    func startCasting(_ lab: RendererLab, to renderer: LabRenderer, media: [String] = [TestMedia.h264],
                              file: StaticString = #filePath, line: UInt = #line) throws -> GstplayProcess {
        let child = try lab.gstplay(["--json", "--cast", "auto", "--cast-interface", lab.clientInterface] + media).started()
        addTeardownBlock { if child.process.isRunning { child.send("quit"); _ = child.waitForExit(timeout: 10) } }
        let started = child.waitForJSON(timeout: 20, event("cast-started"))
        XCTAssertEqual(started?["udn"] as? String, renderer.udn, "stdout:\n\(child.stdout)\nstderr:\n\(child.stderr)", file: file, line: line)
        return child
    }

    // MARK: - Nothing on the network unless asked

    func testNoSSDPPacketWithoutCastWhileListRenderersSearchesTheInterface() throws {
        let lab = try makeLab(.namespace)   // gstplay alone on its network: every SSDP packet on the link is its
        let sniffer = try SSDPSniffer(lab: lab)
        defer { sniffer.stop() }
        let plain = lab.gstplay(["--json", TestMedia.vp8])
        try plain.start()
        XCTAssertNotNil(plain.waitForJSON(timeout: 20, event("eos")), plain.stderr)
        plain.send("quit")
        XCTAssertEqual(plain.waitForExit(timeout: 10), 0, plain.stderr)
        XCTAssertEqual(sniffer.packets, [], "gstplay without --cast sent SSDP")

        // The positive control: the same listener sees the M-SEARCH of a discovery.
        let listing = lab.gstplay(["--list-renderers", "--discover-time", "1", "--cast-interface", lab.clientInterface], input: .devNull)
        try listing.start()
        XCTAssertEqual(listing.waitForExit(timeout: 20), 6, "no renderer: exit 6; \(listing.stderr)")
        let search = sniffer.waitForPacket(timeout: 5) { $0.start.hasPrefix("M-SEARCH") }
        XCTAssertEqual(search?.src, lab.clientAddress, "\(sniffer.packets)")
    }

    // MARK: - Discovery

    func testListRenderersListsGMediaRenderAndRygel() throws {
        let lab = try makeLab()
        let gmr = try lab.startGMediaRender(name: "Kitchen GMR")
        let rygel = try lab.startRygel()
        let result = lab.gstplay(["--list-renderers", "--discover-time", "6", "--cast-interface", lab.clientInterface], input: .devNull)
        try result.start()
        XCTAssertEqual(result.waitForExit(timeout: 20), 0, result.stderr)
        let lines = result.stdoutLines
        XCTAssertTrue(lines.contains { $0.hasPrefix("Kitchen GMR  \(gmr.udn)  ") }, "\(lines)")
        XCTAssertTrue(lines.contains { $0.hasPrefix("\(rygel.friendlyName)  \(rygel.udn)  Rygel") }, "\(lines)")
        XCTAssertEqual(lines.count, 2, "\(lines)")
    }

    // MARK: - Casting, against each renderer

    func testCastToGMediaRenderPausesSeeksSetsVolumeAndCastsOff() throws {
        let lab = try makeLab()
        let renderer = try lab.startGMediaRender(name: "Living room GMR")
        try castControls(lab, renderer)
        XCTAssertTrue(renderer.log.contains("TransportState: PLAYING"), "gmediarender's own log")
    }

    func testCastToRygelPausesSeeksSetsVolumeAndCastsOff() throws {
        let lab = try makeLab()
        try castControls(lab, try lab.startRygel())
    }

    /// The main path: `--cast auto` plays on the renderer and `--json` positions advance with it;
    /// pause, seek to the middle (renderer within 1 s), volume, `cast off` (local playback resumes).
    private func castControls(_ lab: RendererLab, _ renderer: LabRenderer, file: StaticString = #filePath, line: UInt = #line) throws {
        let child = try startCasting(lab, to: renderer, file: file, line: line)
        XCTAssertTrue(lab.waitForTransportState("PLAYING", on: renderer), "renderer log:\n\(renderer.log)", file: file, line: line)
        let mark = child.stdoutLines.count
        let first = child.waitForJSON(after: mark, event("position"))
        let later = child.waitForJSON(after: mark) { [self] in
            $0["event"] as? String == "position" && (number($0, "position") ?? 0) >= (number(first, "position") ?? 99) + 1
        }
        XCTAssertNotNil(later, "--json positions advance while casting: \(child.stdout.suffix(800))", file: file, line: line)

        child.send("pause")
        XCTAssertTrue(lab.waitForTransportState("PAUSED_PLAYBACK", on: renderer), "paused on the renderer", file: file, line: line)
        XCTAssertNotNil(child.waitForJSON(after: mark, timeout: 5) { $0["event"] as? String == "state" && $0["to"] as? String == "paused" },
                        "gstplay's state follows", file: file, line: line)

        let seekMark = child.stdoutLines.count
        child.send("seek 5")
        XCTAssertTrue(eventually(timeout: .seconds(8), interval: .milliseconds(250)) {
            abs((lab.positionInfo(renderer)?.position ?? -9) - 5) <= 1
        }, "renderer position after seek 5: \(String(describing: lab.positionInfo(renderer)))", file: file, line: line)
        XCTAssertNotNil(child.waitForJSON(after: seekMark, timeout: 8) { [self] in
            $0["event"] as? String == "seek-done" && abs((number($0, "position") ?? -9) - 5) <= 1
        }, "seek-done near 5: \(child.stdout.suffix(600))", file: file, line: line)

        child.send("volume 30")
        XCTAssertTrue(eventually(timeout: .seconds(10), interval: .milliseconds(250)) { lab.volume(renderer) == 30 },
                      "renderer volume: \(String(describing: lab.volume(renderer)))", file: file, line: line)

        child.send("mute on")
        XCTAssertTrue(eventually(timeout: .seconds(10), interval: .milliseconds(250)) { lab.isMuted(renderer) == true },
                      "renderer muted: \(String(describing: lab.isMuted(renderer))); its log: "
                      + renderer.log.split(separator: "\n").filter { !$0.contains("cmd_obtain_variable") && ($0.lowercased().contains("mute") || $0.contains("olume")) }.suffix(12).joined(separator: "\n"),
                      file: file, line: line)

        child.send("play")
        XCTAssertTrue(lab.waitForTransportState("PLAYING", on: renderer), file: file, line: line)
        let offMark = child.stdoutLines.count
        child.send("cast off")
        let ended = child.waitForJSON(after: offMark, timeout: 20, event("cast-ended"))
        XCTAssertEqual(ended?["udn"] as? String, renderer.udn, child.stdout.suffix(600).description, file: file, line: line)
        let resumedAt = number(ended, "position") ?? -1
        XCTAssertGreaterThanOrEqual(resumedAt, 4.5, "resumes at the renderer's position", file: file, line: line)
        let endedIndex = child.stdoutLines.count
        let local = child.waitForJSON(after: endedIndex) { [self] in
            $0["event"] as? String == "position" && (number($0, "position") ?? 0) > resumedAt + 0.5
        }
        XCTAssertNotNil(local, "local playback goes on from \(resumedAt)", file: file, line: line)
        XCTAssertTrue(eventually(timeout: .seconds(5), interval: .milliseconds(250)) {
            ["STOPPED", "NO_MEDIA_PRESENT"].contains(lab.transportState(renderer) ?? "")
        }, "the renderer was stopped", file: file, line: line)
        child.send("quit")
        XCTAssertEqual(child.waitForExit(timeout: 10), 0, child.stderr, file: file, line: line)
    }

    // MARK: - The end, a renderer that vanishes, an http URL

    func testCastPlaysToTheEndAndTheItemsEndEventArrives() throws {
        let lab = try makeLab()
        let renderer = try lab.startGMediaRender(name: "End GMR")
        let child = try startCasting(lab, to: renderer, media: [TestMedia.vp8])
        XCTAssertTrue(lab.waitForTransportState("PLAYING", on: renderer))
        XCTAssertNotNil(child.waitForJSON(timeout: 15, event("eos")), "eos after the renderer's 4 s: \(child.stdout.suffix(800))")
        XCTAssertEqual(child.waitForExit(timeout: 10), 0, "the playlist ended: gstplay exits 0; \(child.stderr)")
    }

    func testKilledRendererGivesOneErrorAndLocalPlaybackResumes() throws {
        let lab = try makeLab()
        let renderer = try lab.startGMediaRender(name: "Doomed GMR")
        let child = try startCasting(lab, to: renderer)
        XCTAssertTrue(lab.waitForTransportState("PLAYING", on: renderer))
        XCTAssertTrue(eventually(timeout: .seconds(5), interval: .milliseconds(250)) { (lab.positionInfo(renderer)?.position ?? 0) >= 2 })
        let killedAt = Date()
        renderer.kill()
        let failed = child.waitForJSON(timeout: 15, event("cast-failed"))
        XCTAssertNotNil(failed, "one clear error: \(child.stdout.suffix(800))")
        XCTAssertLessThan(Date().timeIntervalSince(killedAt), 12, "within the call timeout")
        XCTAssertFalse((failed?["message"] as? String ?? "").isEmpty)
        let mark = child.stdoutLines.count
        let local = child.waitForJSON(after: mark) { [self] in $0["event"] as? String == "position" && (number($0, "position") ?? 0) >= 2 }
        XCTAssertNotNil(local, "local playback resumes near where the renderer was: \(child.stdout.suffix(800))")
        XCTAssertEqual(child.stdoutLines.compactMap(jsonObject).filter(event("cast-failed")).count, 1, "one error, not one per poll")
        child.send("quit")
        XCTAssertEqual(child.waitForExit(timeout: 10), 7, "exit 7: casting failed, playback went on; \(child.stderr)")
    }

    func testCastAnHTTPURLHandsItOverAsItIs() throws {
        let lab = try makeLab()
        let renderer = try lab.startGMediaRender(name: "HTTP GMR")
        let server = try HTTPTestServer(bind: "0.0.0.0")
        defer { server.stop() }
        let url = server.url("/file/h264-aac-10s.mp4?mime=1", host: lab.clientAddress)
        _ = try startCasting(lab, to: renderer, media: [url])
        XCTAssertTrue(lab.waitForTransportState("PLAYING", on: renderer), renderer.log)
        XCTAssertTrue(eventually(timeout: .seconds(8), interval: .milliseconds(250)) { lab.positionInfo(renderer)?.uri == url },
                      "the renderer reads the server itself: \(String(describing: lab.positionInfo(renderer)))")
    }
}
