import Foundation
import TestSupport
import XCTest

/// A negative rate given at start, and kept across playlist items, plays each
/// item backwards from its end to its start (like `gst-play-1.0` and mpv), through the binary.
final class ReversePlaybackCLITests: XCTestCase {
    private func events(_ stdout: String, _ name: String) -> [[String: Any]] {
        GstplayProcess.completeLines(stdout).compactMap(jsonObject).filter { $0["event"] as? String == name }
    }

    func testNegativeRateAtStartPlaysTheWholeClipBackwards() throws {
        let started = Date()
        let result = try GstplayProcess.run(["--json", "--rate=-1", GstplayProcess.fixture("theora-vorbis-4s.ogg")], timeout: 30)
        let elapsed = Date().timeIntervalSince(started)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertGreaterThan(elapsed, 3, "a 4 s clip played backwards in real time takes about 4 s")
        let positions = events(result.stdout, "position").compactMap { $0["position"] as? Double }
        XCTAssertGreaterThan(positions.max() ?? 0, 3, "started near the end: \(positions)")
        XCTAssertEqual(events(result.stdout, "eos").first?["position"] as? Double ?? -1, 0, accuracy: 0.5)
        XCTAssertTrue(events(result.stdout, "error").isEmpty, result.stdout)
    }

    func testNegativeRateIsKeptAcrossNextInAPlaylist() throws {
        let items = [GstplayProcess.fixture("vp8-opus-4s.webm"), GstplayProcess.fixture("theora-vorbis-4s.ogg")]
        // `next` right away: the second item is loaded at rate -1 from the start of the console session.
        let result = try GstplayProcess.run(["--json", "--rate=-1"] + items, input: ["next"], timeout: 30)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(events(result.stdout, "error").isEmpty, result.stdout)
        let eos = events(result.stdout, "eos").compactMap { $0["position"] as? Double }
        XCTAssertFalse(eos.isEmpty, result.stdout)
        for position in eos { XCTAssertEqual(position, 0, accuracy: 0.5, "each item ends at its start") }
        let positions = events(result.stdout, "position").compactMap { $0["position"] as? Double }
        XCTAssertGreaterThan(positions.max() ?? 0, 3, "the second item started near its end")
    }
}
