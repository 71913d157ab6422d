@testable import BackendCore
@testable import BackendWindow
import Backend
import CGStreamer
import Foundation
import TestSupport
import XCTest

/// ``WindowFeature`` through a ``Player`` on a private Xvfb: it installs its `videocrop`
/// as playbin's `video-filter`, and the core then reads the media size on that filter's sink pad,
/// so ``VideoGravity/fill`` crops what the sink gets while the reported size stays the stream's.
final class WindowFeatureTests: XCTestCase {
    func testFillCropsTheSinksPictureButNotTheReportedMediaSize() throws {
        let server = try XvfbServer(width: 1024, height: 768)
        withDisplay(server) {
            let recorder = WindowEventRecorder()
            var configuration = PlayerConfiguration()
            configuration.videoSink = .description("ximagesink")
            configuration.audioSink = .description("fakeaudiosink")
            let player = Player(configuration: configuration, delegate: recorder)
            defer { player.shutdown() }
            player.setVideoGravity(.fill)
            player.setRenderRectangle(RenderRectangle(x: 0, y: 0, width: 400, height: 400))   // square: the 16:9 picture loses its sides
            player.load(DisplayMedia.nonSquare)   // 720x576 coded, PAR 64/45: 1024x576 on screen

            let full = VideoSize(codedWidth: 720, height: 576, parNumerator: 64, parDenominator: 45)
            XCTAssertEqual(recorder.wait(timeout: 15) { if case .mediaSize(let size?) = $0 { return size } else { return nil } }, full)
            // The crop applies: the filter's source pad carries the picture without its sides (coded pixels).
            var croppedSize: VideoSize?
            XCTAssertTrue(eventually(timeout: .seconds(10)) {
                player.withEngine { engine in croppedSize = engine.pipeline?.object.flatMap(Self.filterOutputSize) }
                return (croppedSize?.codedWidth ?? 720) < 720
            }, "the video-filter never cropped: \(String(describing: croppedSize))")
            var crop = VideoCrop.none
            player.withFeatureAndWait(WindowFeature.self) { feature, _ in crop = feature.window.appliedCrop }
            XCTAssertEqual(croppedSize?.codedWidth, 720 - crop.left - crop.right)
            XCTAssertGreaterThan(crop.left, 0)

            // The cropped caps changed nothing the player reports: one media size, the stream's (the
            // sink's own pad would say otherwise: ximagesink gets square pixels scaled to its window).
            player.withEngine { _ in }   // a loop round trip after the caps changed
            let sizes = recorder.events.compactMap { if case .mediaSize(let size) = $0 { return size } else { return nil } }
            XCTAssertEqual(sizes, [full], "the stream's size (coded 720, PAR 64/45), not the sink's (coded 1024, PAR 1/1)")
            XCTAssertEqual(player.mediaSize, full)
        }
    }

    /// The size on the source pad of playbin's `video-filter` (loop thread), nil before caps.
    private static func filterOutputSize(_ playbin: UnsafeMutableRawPointer) -> VideoSize? {
        guard let filter = CGStreamer_get_object(playbin, "video-filter") else { return nil }
        defer { gst_object_unref(filter) }
        guard let pad = gst_element_get_static_pad(filter.assumingMemoryBound(to: GstElement.self), "src") else { return nil }
        defer { gst_object_unref(UnsafeMutableRawPointer(pad)) }
        return SinkSet.videoSize(of: pad)
    }
}
