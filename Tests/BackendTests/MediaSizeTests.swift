import Backend
import Foundation
import TestSupport
import XCTest

/// The reported video size on real pipelines: pixel aspect ratio, automatic sinks, mid-stream changes, audio only.
final class MediaSizeTests: XCTestCase {
    func testMediaSizeSquarePixels() {
        XCTAssertEqual(firstMediaSize(TestMedia.vp8), VideoSize(codedWidth: 320, height: 240, parNumerator: 1, parDenominator: 1))
    }

    func testMediaSizeAppliesNonSquarePixelAspectRatio() {
        let size = firstMediaSize(TestMedia.nonSquare)
        XCTAssertEqual(size?.width, 1024)
        XCTAssertEqual(size?.height, 576)
        XCTAssertEqual(size?.codedWidth, 720)
    }

    func testMediaSizeWithAutomaticHeadlessSinks() {
        let recorder = EventRecorder()
        let player = Player(configuration: PlayerConfiguration(), delegate: recorder)
        defer { player.shutdown() }
        player.load(TestMedia.nonSquare)
        let size = recorder.waitForValue("media size") { event -> VideoSize? in
            if case .mediaSize(let s?) = event { return s } else { return nil }
        }
        XCTAssertEqual(size?.width, 1024)
        if ProcessInfo.processInfo.environment["DISPLAY"] == nil {
            XCTAssertTrue(recorder.events.contains { if case .sinksChosen(let v, _, _) = $0 { return v == "fakevideosink" } else { return false } })
        }
    }

    func testMediaSizeChangesMidStream() {
        let recorder = EventRecorder()
        let player = Player.forTesting(recorder)
        defer { player.shutdown() }
        player.load(TestMedia.sizeChange)
        recorder.waitFor("EOS") { $0.contains(where: \.isEndOfStream) }
        let sizes = recorder.events.compactMap { event -> VideoSize? in if case .mediaSize(let s?) = event { return s } else { return nil } }
        XCTAssertEqual(sizes.map(\.description), ["320x240", "640x480"])
    }

    func testAudioOnlyReportsNoVideoSize() {
        let recorder = EventRecorder()
        let player = Player.forTesting(recorder)
        defer { player.shutdown() }
        player.load(TestMedia.audioOnly)
        let info = recorder.waitForValue("media info") { event -> MediaInfo? in if case .mediaInfo(let i) = event { return i } else { return nil } }
        XCTAssertEqual(info?.hasVideo, false)
        XCTAssertEqual(info?.hasAudio, true)
        recorder.waitFor("playing") { recorder.reachedState(.playing)($0) }
        XCTAssertFalse(recorder.events.contains { if case .mediaSize = $0 { return true } else { return false } })
        XCTAssertNil(player.mediaSize)
    }

    // MARK: Helpers

    private func firstMediaSize(_ file: String) -> VideoSize? {
        let recorder = EventRecorder()
        let player = Player.forTesting(recorder) { $0.autoplay = false }
        defer { player.shutdown() }
        player.load(file)
        return recorder.waitForValue("media size of \(file)") { event -> VideoSize? in
            if case .mediaSize(let s?) = event { return s } else { return nil }
        }
    }
}
