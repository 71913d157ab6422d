import Backend
import TestSupport
import XCTest

/// The cast feature without a renderer (the end-to-end tests against gmediarender and
/// Rygel are the test lab's): idle until asked, a cast to a renderer that is not there fails with
/// one `castFailed` event after the find timeout, and local playback goes on meanwhile.
final class CastFeatureTests: XCTestCase {
    private func player(_ recorder: EventRecorder, findTimeout: Duration = .seconds(1)) -> Player {
        Player.forTesting(recorder, standard: { standard in
            standard.cast = CastSettings(interfaces: ["lo"])   // discovery stays on the loopback interface
            standard.cast.findTimeout = findTimeout
        })
    }

    func testTheFeatureIsIdleUntilAskedAndListsNothingWithoutRenderers() async throws {
        let recorder = EventRecorder()
        let player = player(recorder)
        defer { player.shutdown() }
        try await player.waitFor("playing", where: { $0.newState == .playing }) { player.load(TestMedia.h264) }
        XCTAssertTrue(player.hasFeature(CastFeature.self), "StandardFeatures has the cast feature")
        XCTAssertEqual(player.snapshot.features[CastSnapshot.self], CastSnapshot(), "no discovery before it is asked for")
        XCTAssertEqual(player.renderers, [])
        XCTAssertNil(player.castingRenderer)
        player.discoverRenderers()
        XCTAssertTrue(eventually { player.snapshot.features[CastSnapshot.self]?.discovering == true })
        XCTAssertEqual(player.renderers, [])
    }

    func testACastToARendererThatIsNotThereFailsOnceAndLocalPlaybackGoesOn() async throws {
        let recorder = EventRecorder()
        let player = player(recorder)
        defer { player.shutdown() }
        try await player.waitFor("playing", where: { $0.newState == .playing }) { player.load(TestMedia.h264) }
        let started = ContinuousClock.now
        let message = try await player.waitForValue("cast failed", timeout: .seconds(10), { event -> String? in
            if case .castFailed(nil, let message)? = event.castEvent { return message } else { return nil }
        }, after: { player.cast(to: .name("Nowhere TV")) })
        let waited = ContinuousClock.now - started
        XCTAssertEqual(message, "no renderer 'Nowhere TV' found within 1 s")
        XCTAssertGreaterThanOrEqual(waited, .milliseconds(900), "it waited for discovery first")
        XCTAssertLessThan(waited, .seconds(5))
        XCTAssertEqual(player.snapshot.state, .playing, "local playback went on")
        XCTAssertNil(player.castingRenderer)
        let before = player.snapshot.position ?? .zero
        try await player.waitFor("the position moves on", where: { ($0.position ?? .zero) > before + MediaTime(seconds: 0.5) })
        let failures = recorder.events.filter { if case .castFailed? = $0.castEvent { return true } else { return false } }
        XCTAssertEqual(failures.count, 1, "one error")
    }

    func testStopCastingWithoutACastChangesNothing() async throws {
        let recorder = EventRecorder()
        let player = player(recorder)
        defer { player.shutdown() }
        try await player.waitFor("playing", where: { $0.newState == .playing }) { player.load(TestMedia.h264) }
        let mark = recorder.count
        player.stopCasting()
        try await player.waitFor("paused", where: { $0.newState == .paused }) { player.pause() }
        XCTAssertFalse(recorder.events.dropFirst(mark).contains { $0.castEvent != nil }, "no cast event")
    }
}
