import Backend
@testable import BackendTracks
import CGStreamer
import TestSupport
import XCTest

/// The style of drawn subtitles reaches playbin's own `subtitleoverlay` and its text
/// renderer (a real pipeline with fake sinks and ``SubtitleRendering/overlay``), and changes at once.
final class SubtitleStyleTests: XCTestCase {
    func testTheStyleReachesTheOverlayAndItsRendererAndVisibilityToggles() {
        let recorder = EventRecorder()
        let player = Player.forTesting(recorder, standard: {
            $0.subtitleRendering = .overlay
            $0.subtitleStyle = SubtitleStyle(visible: true, scale: 2, position: 80)
        })
        defer { player.shutdown() }
        player.load(TestMedia.tracks)
        recorder.waitFor("the first cue") { $0.contains { $0.cue != nil } }
        XCTAssertTrue(player.subtitlesDrawn)

        var seen = overlayProperties(of: player)
        XCTAssertEqual(seen.count, 1, "one subtitleoverlay")
        XCTAssertEqual(seen.first?.silent, false)
        XCTAssertEqual(seen.first?.font, "Sans 56.0")
        XCTAssertEqual(seen.first?.rendererYPosition ?? -1, 0.8, accuracy: 0.001)

        player.toggleSubtitleVisibility()
        XCTAssertTrue(eventually { !player.subtitleStyle.visible })
        seen = overlayProperties(of: player)
        XCTAssertEqual(seen.first?.silent, true, "v hides the drawn subtitles")
        player.setSubtitlesVisible(true)
        XCTAssertTrue(eventually { player.subtitleStyle.visible })
        XCTAssertEqual(overlayProperties(of: player).first?.silent, false)
    }

    /// `silent`, `font-desc` of each `subtitleoverlay` in playbin and `ypos` of its `textoverlay`
    /// renderer (valignment `position`), read on the loop thread.
    private func overlayProperties(of player: Player) -> [(silent: Bool, font: String?, rendererYPosition: Double?)] {
        nonisolated(unsafe) var found: [(silent: Bool, font: String?, rendererYPosition: Double?)] = []
        player.withFeatureAndWait(TracksFeature.self) { _, context in
            context.pipeline.forEachElement(madeBy: "subtitleoverlay") { overlay in
                var y: Double?
                SubtitleOverlayTap.forEach(factory: "textoverlay", in: overlay) { renderer in
                    if CGStreamer_get_int(renderer, "valignment") == 3 { y = CGStreamer_get_double(renderer, "ypos") } // 3: "position"
                }
                let object = UnsafeMutableRawPointer(overlay)
                found.append((CGStreamer_get_boolean(object, "silent") != 0, String(takingGLibString: CGStreamer_get_string(object, "font-desc")), y))
            }
        }
        return found
    }
}
