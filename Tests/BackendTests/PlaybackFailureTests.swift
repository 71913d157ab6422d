import Backend
import Foundation
import TestSupport
import XCTest

/// Loads that fail on real pipelines: missing, corrupt and malformed inputs, and recovery afterwards.
final class PlaybackFailureTests: XCTestCase {
    func testMissingFileNamesTheElementAndMessageAndPlayerRecovers() {
        let recorder = EventRecorder()
        let player = Player.forTesting(recorder)
        defer { player.shutdown() }
        player.load("/nonexistent/definitely-missing.mp4")
        let error = recorder.waitForValue("error") { $0.error }
        XCTAssertEqual(error?.element, "source")
        XCTAssertEqual(error?.kind, .resource)
        XCTAssertTrue(error?.message.localizedCaseInsensitiveContains("not found") ?? false, error?.message ?? "")
        XCTAssertNotNil(error?.debug)
        XCTAssertEqual(player.state, .error)
        XCTAssertEqual(player.snapshot.lastError, error)
        // The same player plays something else afterwards.
        player.load(TestMedia.short)
        recorder.waitFor("EOS after recovery") { $0.contains(where: \.isEndOfStream) }
        XCTAssertEqual(Array(recorder.states().prefix(2)), [.opening, .error])
        XCTAssertEqual(recorder.states().suffix(4), [.opening, .ready, .playing, .ended])
    }

    func testCorruptInputsFailWithElementAndMessage() {
        for file in [TestMedia.garbage, TestMedia.empty, TestMedia.noMoov] {
            let recorder = EventRecorder()
            // decodebin sometimes swallows qtdemux's error on no-moov.mp4 (GStreamer 1.22); the open
            // watchdog then fails the load: keep it well inside this test's 10 s wait.
            let player = Player.forTesting(recorder) { $0.openTimeout = .seconds(3) }
            player.load(file)
            let error = recorder.waitForValue("error for \(file)") { $0.error }
            XCTAssertNotNil(error?.element, file)
            XCTAssertFalse(error?.message.isEmpty ?? true, file)
            XCTAssertEqual(player.state, .error, file)
            player.shutdown()
        }
    }

    func testMalformedURIFailsWithoutTouchingGStreamer() {
        let recorder = EventRecorder()
        let player = Player.forTesting(recorder)
        defer { player.shutdown() }
        player.load("   ")
        let error = recorder.waitForValue("error") { $0.error }
        XCTAssertEqual(error?.kind, .invalidInput)
        XCTAssertEqual(recorder.states(), [.opening, .error])
    }
}
