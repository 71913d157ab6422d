import Backend
import Foundation
import TestSupport
import XCTest

/// In the Backend, an error already on the bus when the player shuts down (a
/// `load` of a missing file posts it while the load runs) is still reported, so a frontend that
/// quits right after the command learns that the item failed, whatever the timing. Real playbin.
final class ShutdownErrorTests: XCTestCase {
    func testAnErrorPostedJustBeforeShutdownIsReported() throws {
        for run in 1...5 {
            let recorder = EventRecorder()
            let player = Player.forTesting(recorder, sync: false)
            player.playNow(QueueItem(uri: try MediaLocation.uri(for: "/nonexistent/gstplay-\(getpid())-\(run).mp3")))
            player.shutdown()                         // queued right behind the load
            let errors = recorder.events.compactMap(\.error)
            XCTAssertEqual(errors.count, 1, "run \(run): \(recorder.events)")
            XCTAssertEqual(errors.first?.kind, .resource, "run \(run)")
        }
    }

    func testAHealthyItemShutsDownWithoutAnError() throws {
        let recorder = EventRecorder()
        let player = Player.forTesting(recorder, sync: false)
        player.playNow(QueueItem(uri: try MediaLocation.uri(for: TestMedia.path("short-0.2s.mp4"))))
        player.shutdown()
        XCTAssertTrue(recorder.events.compactMap(\.error).isEmpty, "\(recorder.events)")
    }
}
