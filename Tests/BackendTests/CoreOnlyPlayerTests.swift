@testable import BackendCore
import Backend
import CGStreamer
import TestSupport
import XCTest

/// A player made from the core alone (`Player(configuration:features: [])`): it plays and
/// reports its media size from the video sink, installs no `video-filter` (that is the window
/// feature's), and the window and snapshot calls, whose features it lacks, do nothing or throw.
final class CoreOnlyPlayerTests: XCTestCase {
    func testACorePlayerPlaysWithoutTheWindowAndThumbnailsFeatures() async throws {
        let player = Player(configuration: .fakeSinks(), features: [])
        defer { player.shutdown() }
        XCTAssertFalse(player.hasFeature(WindowFeature.self))
        player.setVideoGravity(.fill)            // no window feature: ignored
        let size = try await player.waitForValue("media size", { event -> VideoSize? in
            if case .mediaSize(let size?) = event { return size } else { return nil }
        }, after: { player.load(TestMedia.h264) })
        XCTAssertEqual(size.width, 320)
        var filter: UnsafeMutableRawPointer?
        player.withEngine { engine in filter = engine.pipeline?.object.flatMap { CGStreamer_get_object($0, "video-filter") } }
        XCTAssertNil(filter, "only the window feature sets playbin's video-filter")
        XCTAssertThrowsError(try player.snapshotNow()) { XCTAssertEqual(($0 as? ImageError)?.kind, .noFrame) }
        do {
            _ = try await player.snapshot()
            XCTFail("a player without ThumbnailsFeature took a snapshot")
        } catch {
            XCTAssertEqual((error as? ImageError)?.kind, .noFrame)
        }
    }
}
