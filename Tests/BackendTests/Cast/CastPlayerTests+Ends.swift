import Backend
import Foundation
import TestSupport
import XCTest

/// Casting through the Player API, the ends of a cast: the item played to its end on the
/// renderer (the end-of-stream event), and a renderer killed mid-play (one `castFailed`, local
/// playback back near the renderer's position). Against Rygel, the CLI tests' other renderer.
extension CastPlayerTests {
    private func castStarted(_ player: Player, to renderer: LabRenderer) async throws {
        let started = try await player.waitForValue("castStarted", timeout: .seconds(20), { event -> String? in
            if case .castStarted(let target)? = event.castEvent { return target.udn }
            if case .castFailed(_, let message)? = event.castEvent { return "failed: \(message)" }
            return nil
        }, after: { player.cast(to: .udn(renderer.udn)) })
        XCTAssertEqual(started, renderer.udn)
    }

    func testRygelPlaysTheItemToItsEndAndTheEndOfStreamEventArrives() async throws {
        let lab = try makeLab()
        let rygel = try lab.startRygel()
        let recorder = EventRecorder()
        let player = makePlayer(lab, recorder)
        _ = try await player.loadAsync(TestMedia.path("mp3-4s.mp3"))   // Rygel refuses video/webm (714)
        try await castStarted(player, to: rygel)
        XCTAssertTrue(lab.waitForTransportState("PLAYING", on: rygel), rygel.log)
        let end = recorder.waitForValue("endOfStream from the renderer", timeout: 15) { event -> Double? in
            if case .endOfStream(let at) = event { return at.seconds }
            return nil
        }
        XCTAssertEqual(end ?? 0, 4, accuracy: 1, "ends at the item's end")
        XCTAssertEqual(player.castingRenderer?.udn, rygel.udn, "the end of an item does not end the cast")
    }

    func testKilledRygelFailsTheCastOnceAndLocalPlaybackResumes() async throws {
        let lab = try makeLab()
        let rygel = try lab.startRygel()
        let recorder = EventRecorder()
        let player = makePlayer(lab, recorder)
        _ = try await player.loadAsync(TestMedia.h264)
        try await castStarted(player, to: rygel)
        XCTAssertTrue(eventually(timeout: .seconds(8), interval: .milliseconds(250)) { (lab.positionInfo(rygel)?.position ?? 0) >= 2 })
        let mark = recorder.count
        rygel.kill()
        let message = recorder.waitForValue("castFailed", timeout: 15, after: mark) { event -> String? in
            if case .castFailed(_, let message)? = event.castEvent { return message }
            return nil
        }
        XCTAssertFalse((message ?? "").isEmpty)
        XCTAssertNil(player.castingRenderer)
        let resumed = recorder.waitForValue("local positions", timeout: 10, after: recorder.count) { event -> Double? in
            if case .position(let at, _) = event, at.seconds >= 2 { return at.seconds }
            return nil
        }
        XCTAssertNotNil(resumed, "local playback resumes near where the renderer was")
        XCTAssertTrue(recorder.staysFalse(for: 1) { events in
            events.dropFirst(mark).filter { if case .castFailed? = $0.castEvent { true } else { false } }.count > 1
        }, "one error, not one per poll")
    }

    /// A renderer killed without byebye (SIGKILL: a TV unplugged) while casting: within 3 s one
    /// `castFailed`, the renderer leaves the list (its announcement would keep it there for up to
    /// 30 min) and local playback resumes where the renderer was.
    func testKilledGMediaRenderLeavesTheListAndLocalPlaybackResumes() async throws {
        let lab = try makeLab()
        let gmr = try lab.startGMediaRender(name: "Unplugged GMR")
        let recorder = EventRecorder()
        let player = makePlayer(lab, recorder)
        _ = try await player.loadAsync(TestMedia.h264)
        try await castStarted(player, to: gmr)
        XCTAssertTrue(eventually(timeout: .seconds(8), interval: .milliseconds(250)) { (lab.positionInfo(gmr)?.position ?? 0) >= 2 })
        let mark = recorder.count
        let killedAt = Date()
        gmr.kill()
        let message = recorder.waitForValue("castFailed", timeout: 10, after: mark) { event -> String? in
            if case .castFailed(_, let message)? = event.castEvent { return message }
            return nil
        }
        XCTAssertNotNil(message)
        XCTAssertLessThan(Date().timeIntervalSince(killedAt), 3, "cast-failed within 3 s of the kill")
        let listed = recorder.waitForValue("a list without the killed renderer", timeout: 5, after: mark) { event -> [String]? in
            if case .renderersChanged(let list)? = event.castEvent, !list.contains(where: { $0.udn == gmr.udn }) { return list.map(\.udn) }
            return nil
        }
        XCTAssertEqual(listed, [], "dropped from the list")
        XCTAssertFalse(player.renderers.contains { $0.udn == gmr.udn }, "\(player.renderers.map(\.udn))")
        XCTAssertNil(player.castingRenderer)
        let resumed = recorder.waitForValue("local positions", timeout: 10, after: recorder.count) { event -> Double? in
            if case .position(let at, _) = event, at.seconds >= 2 { return at.seconds }
            return nil
        }
        XCTAssertNotNil(resumed, "local playback resumes where the renderer was")
        XCTAssertEqual(player.state, .playing)
    }
}
