import Foundation
import TestSupport
import XCTest

/// Casting through `gstplay`: a renderer that refuses the media (UPnP 714), one that stops
/// answering (SIGSTOP: every call times out), and `next` through the queue while casting.
extension CastCLITests {
    func testRygelRefusingTheMediaGivesOneErrorAndLocalPlaybackGoesOn() throws {
        let lab = try makeLab()
        let rygel = try lab.startRygel()
        let server = try HTTPTestServer(bind: "0.0.0.0")
        defer { server.stop() }
        // application/octet-stream: Rygel's HEAD check answers 714 (Illegal MIME-type).
        let url = server.url("/file/h264-aac-10s.mp4", host: lab.clientAddress)
        let child = try lab.gstplay(["--json", "--cast", "auto", "--cast-interface", lab.clientInterface, url]).started()
        defer { child.send("quit"); _ = child.waitForExit(timeout: 10) }
        let failed = child.waitForJSON(timeout: 20, event("cast-failed"))
        let message = failed?["message"] as? String ?? ""
        XCTAssertTrue(message.contains("714") || message.contains("refused"), "one clear error: \(child.stdout.suffix(800))")
        XCTAssertEqual(failed?["udn"] as? String, rygel.udn)
        let mark = child.stdoutLines.count
        XCTAssertNotNil(child.waitForJSON(after: mark, timeout: 10) { [self] in
            $0["event"] as? String == "position" && (number($0, "position") ?? 0) > 0.5
        }, "local playback goes on: \(child.stdout.suffix(600))")
        XCTAssertEqual(child.stdoutLines.compactMap(jsonObject).filter(event("cast-failed")).count, 1)
        XCTAssertNotEqual(lab.transportState(rygel), "PLAYING")
    }

    func testRendererThatStopsAnsweringTimesOutAndLocalPlaybackResumes() throws {
        let lab = try makeLab()
        let renderer = try lab.startGMediaRender(name: "Frozen GMR")
        let child = try startCasting(lab, to: renderer)
        XCTAssertTrue(lab.waitForTransportState("PLAYING", on: renderer))
        let frozenAt = Date()
        renderer.freeze()
        let failed = child.waitForJSON(timeout: 20, event("cast-failed"))
        XCTAssertNotNil(failed, "a renderer that stops answering fails the cast: \(child.stdout.suffix(800))")
        XCTAssertLessThan(Date().timeIntervalSince(frozenAt), 12, "within the 5 s call timeout and a poll")
        let mark = child.stdoutLines.count
        XCTAssertNotNil(child.waitForJSON(after: mark, timeout: 10, event("position")), "local playback resumes")
        child.send("status")   // nothing hangs: the console still answers
        XCTAssertNotNil(child.waitForJSON(after: mark, timeout: 5) { $0["data"] != nil || $0["reply"] != nil || $0["status"] != nil },
                        child.stdout.suffix(600).description)
        child.send("quit")
        XCTAssertEqual(child.waitForExit(timeout: 10), 7, child.stderr)
    }

    func testNextWhileCastingHandsTheNextItemToTheRenderer() throws {
        let lab = try makeLab()
        let renderer = try lab.startGMediaRender(name: "Queue GMR")
        let child = try startCasting(lab, to: renderer, media: [TestMedia.h264, TestMedia.vp8])
        XCTAssertTrue(lab.waitForTransportState("PLAYING", on: renderer))
        // gmediarender answers GetPositionInfo with duration 0 until its pipeline knows it (seen
        // in a loaded `make test`): wait for the duration rather than read it once.
        var known = lab.positionInfo(renderer)
        XCTAssertTrue(eventually(timeout: .seconds(5), interval: .milliseconds(100)) {
            known = lab.positionInfo(renderer)
            return (known?.duration ?? 0) > 0
        }, "the renderer knows the first item's duration")
        let first = try XCTUnwrap(known)
        XCTAssertEqual(first.duration, 10, accuracy: 1)
        child.send("next")
        XCTAssertTrue(eventually(timeout: .seconds(10), interval: .milliseconds(250)) {
            guard let now = lab.positionInfo(renderer) else { return false }
            return now.uri != first.uri && abs(now.duration - 4) <= 1
        }, "the renderer plays the 4 s second item: \(String(describing: lab.positionInfo(renderer)))")
        XCTAssertNotNil(child.waitForJSON(timeout: 15, event("eos")), "the second item ends on the renderer")
        XCTAssertEqual(child.waitForExit(timeout: 10), 0, "the playlist is over: \(child.stderr)")
    }
}
