@testable import BackendCore
@testable import BackendThumbnails
import Backend
import Foundation
import TestSupport
import XCTest

/// `Player.snapshot(format:maxSize:)` on a real player with headless fake sinks: paused,
/// after a seek, while playing, with non-square pixels, and the error cases.
final class PlayerSnapshotTests: XCTestCase {
    private func centre(_ image: Image) throws -> DecodedImage.Pixel {
        let decoded = try XCTUnwrap(DecodedImage.decode(image.bytes, format: image.format))
        XCTAssertEqual([decoded.width, decoded.height], [image.width, image.height])
        XCTAssertFalse(decoded.isBlack)
        return decoded.pixel(x: decoded.width / 2, y: decoded.height * 2 / 3)
    }

    func testPausedSeekedAndPlayingFramesWithTheDefaultHeadlessSinks() async throws {
        let recorder = EventRecorder()
        var configuration = PlayerConfiguration()
        configuration.autoplay = false // automatic sinks: fakevideosink/fakeaudiosink here
        let player = Player(configuration: configuration, delegate: recorder)
        defer { player.shutdown() }
        player.load(TestMedia.colourSteps)
        recorder.waitFor("prerolled") { recorder.reachedState(.ready)($0) }
        let paused = try await player.snapshot()
        XCTAssertEqual([paused.width, paused.height], [320, 240])
        XCTAssertTrue(try centre(paused).isClose(to: .red), "paused at 0 s")

        player.seek(to: MediaTime(seconds: 2.5), mode: .accurate)
        _ = recorder.waitForValue("seek done") { $0.seekDone }
        let seeked = try await player.snapshot(format: .jpeg, maxSize: ImageSize(width: 160))
        XCTAssertEqual([seeked.width, seeked.height], [160, 120])
        XCTAssertTrue(try centre(seeked).isClose(to: .blue), "paused after a seek to 2.5 s")

        let before = recorder.count
        player.play()
        _ = recorder.waitForValue("playing past 3.2 s", after: before) { event in
            event.position.flatMap { $0.seconds > 3.2 ? $0 : nil }
        }
        let playing = try await player.snapshot()
        XCTAssertTrue(try centre(playing).isClose(to: .white), "playing past 3.2 s")
    }

    func testPixelAspectRatioAndErrors() async throws {
        let recorder = EventRecorder()
        let player = Player.forTesting(recorder) { $0.autoplay = false }
        defer { player.shutdown() }
        do {
            _ = try await player.snapshot()
            XCTFail("nothing loaded yet")
        } catch let error as ImageError { XCTAssertEqual(error.kind, .noFrame) }

        player.load(TestMedia.nonSquare)
        recorder.waitFor("prerolled") { recorder.reachedState(.ready)($0) }
        let image = try await player.snapshot()
        XCTAssertEqual([image.width, image.height], [1024, 576], "720x576 at PAR 64/45")
        let decoded = try XCTUnwrap(DecodedImage.decode(image.bytes))
        XCTAssertEqual([decoded.width, decoded.height], [1024, 576])
        let waited = try player.snapshotNow(format: .jpeg, maxSize: ImageSize(width: 256))
        XCTAssertEqual([waited.width, waited.height], [256, 144], "the blocking variant, scaled")

        let before = recorder.count
        player.load(TestMedia.audioOnly)
        _ = recorder.waitForValue("audio prerolled", after: before) { event in
            if case .stateChanged(_, .ready) = event { return true } else { return nil }
        }
        do {
            _ = try await player.snapshot()
            XCTFail("audio only")
        } catch let error as ImageError { XCTAssertEqual(error.kind, .noVideo) }

        player.shutdown()
        do {
            _ = try await player.snapshot()
            XCTFail("shut down")
        } catch let error as ImageError { XCTAssertEqual(error.kind, .noFrame) }
        XCTAssertThrowsError(try player.snapshotNow()) { XCTAssertEqual(($0 as? ImageError)?.kind, .noFrame) }
    }

    func testDisabledVideoIsNoVideo() async throws {
        let recorder = EventRecorder()
        let player = Player.forTesting(recorder) { $0.autoplay = false; $0.videoSink = .disabled }
        defer { player.shutdown() }
        player.load(TestMedia.vp8)
        recorder.waitFor("prerolled") { recorder.reachedState(.ready)($0) }
        do {
            _ = try await player.snapshot()
            XCTFail("video disabled")
        } catch let error as ImageError { XCTAssertEqual(error.kind, .noVideo) }
    }
}
