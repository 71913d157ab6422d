import Backend
import Foundation
import TestSupport
import XCTest

/// The cast route's own behaviour against a real `gmediarender` in a ``RendererLab`` (the
/// test lab's CastPlayerTests cover the commands): a cast begun mid-item seeks the renderer
/// there, and a pause or play done on the renderer itself (its remote; here another control
/// point, `upnp-client`) moves the player's state.
final class CastRouteLabTests: XCTestCase {
    func testAMidItemCastStartsThereAndTheRenderersOwnPauseAndPlayReachThePlayer() async throws {
        XCTAssertTrue(FileManager.default.isExecutableFile(atPath: RendererLab.upnpClient), "no \(RendererLab.upnpClient): run `make test-venv`")
        let lab = try RendererLab()
        addTeardownBlock { lab.tearDown() }
        let renderer = try lab.startGMediaRender(name: "Route lab")
        let recorder = EventRecorder()
        let player = Player.forTesting(recorder, standard: { $0.cast = CastSettings(interfaces: [lab.clientInterface]) })
        addTeardownBlock { player.shutdown() }
        _ = try await player.loadAsync(TestMedia.h264, startAt: .time(MediaTime(seconds: 4)))
        try await player.waitFor("castStarted", where: { event in
            if case .castStarted? = event.castEvent { return true } else { return false }
        }, timeout: .seconds(20), after: { player.cast(to: .udn(renderer.udn)) })
        // The renderer starts the item from 0 and is sought to where it was playing here (4 s +).
        XCTAssertTrue(eventually(timeout: .seconds(10), interval: .milliseconds(250)) {
            (lab.positionInfo(renderer)?.position ?? 0) >= 4
        }, "renderer at \(String(describing: lab.positionInfo(renderer)))\n\(renderer.log.suffix(2000))")
        XCTAssertGreaterThanOrEqual(player.snapshot.position?.seconds ?? 0, 3.5, "the player shows the renderer's position")

        try lab.call(renderer, "AVTransport/Pause")
        recorder.waitFor("paused by the renderer", timeout: 5) { _ in player.state == .paused }
        try lab.call(renderer, "AVTransport/Play", ["Speed": "1"])
        recorder.waitFor("playing again by the renderer", timeout: 5) { _ in player.state == .playing }
        XCTAssertEqual(player.castingRenderer?.udn, renderer.udn, "cast events: \(recorder.events.compactMap(\.castEvent))\n\(renderer.log.suffix(3000))")
    }
}
