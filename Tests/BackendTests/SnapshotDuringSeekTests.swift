import Backend
import Foundation
import TestSupport
import XCTest

/// A flushing seek clears the video sink's last frame until the next one is shown; a snapshot
/// asked for meanwhile waits for that frame instead of failing with "no video frame has been
/// shown yet". Real `playbin`, fake sinks, the VP8 fixture.
final class SnapshotDuringSeekTests: XCTestCase {
    func testASnapshotRightAfterASeekIsTheFrameAfterIt() async throws {
        let player = Player.forTesting()
        defer { player.shutdown() }
        try await player.waitFor("playing", where: { $0.newState == .playing }) { player.load(TestMedia.vp8) }
        for target in [2.0, 0.5, 3.0, 1.0] {
            player.seek(to: MediaTime(seconds: target))
            let image = try await player.snapshot(format: .png)      // queued after the seek: the flush comes first
            XCTAssertGreaterThan(image.width, 0, "a frame after the seek to \(target) s")
        }
        player.pause()
        player.seek(to: MediaTime(seconds: 2.5))
        let paused = try await player.snapshot(format: .png)
        XCTAssertGreaterThan(paused.width, 0, "paused: the seek's prerolled frame")
    }
}
