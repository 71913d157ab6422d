@testable import BackendCore
import Backend
import Foundation
import TestSupport
import XCTest

/// `frame-step` / `frame-back-step` on real pipelines: ten steps each way on H.264 (MP4), VP8
/// (WebM) and Theora (Ogg), all 30 fps. Each step must land on the neighbouring frame: the shown
/// frame's timestamp (the video sink's `last-sample`) moves by one frame duration, read as a frame
/// number (timestamp × 30, rounded) because WebM stores milliseconds (steps of 33 or 34 ms).
final class FrameStepTests: XCTestCase {
    func testTenStepsForwardThenTenBackMoveOneFrameEachOnH264VP8AndTheora() async throws {
        for fixture in [TestMedia.h264, TestMedia.vp8, TestMedia.theora] {
            try await checkSteps(on: fixture)
        }
    }

    func testAStepWhilePlayingPausesOnTheNextFrame() async throws {
        let player = Player.forTesting()
        defer { player.shutdown() }
        try await player.loadAsync(TestMedia.vp8)
        _ = try await player.waitFor("playing", where: { $0 == .stateChanged(from: .ready, to: .playing) || $0 == .stateChanged(from: .seeking, to: .playing) }, timeout: .seconds(20))
        let first = try await player.frameStepAsync()
        let second = try await player.frameStepAsync()
        XCTAssertEqual(Self.frame(second) - Self.frame(first), 1, "the second step shows the next frame (\(first) → \(second))")
        XCTAssertEqual(player.snapshot.state, .paused, "stepping pauses, as in mpv")
    }

    func testAudioOnlyMediaRefusesFrameSteps() async throws {
        let player = Player.forTesting(configure: { $0.autoplay = false })
        defer { player.shutdown() }
        try await player.loadAsync(TestMedia.audioOnly)
        do {
            try await player.frameStepAsync()
            XCTFail("an audio-only file stepped")
        } catch {
            XCTAssertEqual(error.kind, .invalidArgument, "\(error)")
        }
    }

    private func checkSteps(on fixture: String, file: StaticString = #filePath, line: UInt = #line) async throws {
        let player = Player.forTesting(configure: { $0.autoplay = false })
        defer { player.shutdown() }
        try await player.loadAsync(fixture, startAt: .time(MediaTime(seconds: 1)))
        let name = (fixture as NSString).lastPathComponent
        var frames = [Self.frame(try await player.frameStepAsync())]
        for _ in 0..<10 { frames.append(Self.frame(try await player.frameStepAsync())) }
        for _ in 0..<10 { frames.append(Self.frame(try await player.frameBackStepAsync())) }
        let moves = zip(frames, frames.dropFirst()).map { $1 - $0 }
        XCTAssertEqual(moves, Array(repeating: 1, count: 10) + Array(repeating: -1, count: 10),
                       "\(name): one frame per step each way; frames \(frames)", file: file, line: line)
        XCTAssertEqual(player.snapshot.state, .paused, "\(name): still paused", file: file, line: line)
        let shown = try XCTUnwrap(player.snapshot.position, file: file, line: line)
        XCTAssertEqual(Self.frame(shown), frames.last, "\(name): the snapshot's position is the frame shown", file: file, line: line)
        print("FrameStepTests: \(name): frames \(frames)")
    }

    /// The frame number of a timestamp at 30 fps.
    static func frame(_ time: MediaTime) -> Int { Int((Double(time.nanoseconds) * 30 / 1e9).rounded()) }
}
