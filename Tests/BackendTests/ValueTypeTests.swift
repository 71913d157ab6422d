@testable import BackendCore
import Backend
import XCTest

/// MediaTime, VideoSize, MediaLocation and SinkSelection: pure logic.
final class ValueTypeTests: XCTestCase {
    func testMediaTimeFormatting() {
        XCTAssertEqual(MediaTime.zero.formatted(), "0:00:00")
        XCTAssertEqual(MediaTime(seconds: 83.4).formatted(fractionDigits: 1), "0:01:23.4")
        XCTAssertEqual(MediaTime(seconds: 2700).formatted(), "0:45:00")
        XCTAssertEqual(MediaTime(seconds: 3723.5).formatted(fractionDigits: 3), "1:02:03.500")
        XCTAssertEqual(MediaTime(seconds: -5).formatted(), "-0:00:05")
    }

    func testMediaTimeArithmeticSaturatesAndHandlesNonFinite() {
        XCTAssertEqual(MediaTime(seconds: .nan), .zero)
        XCTAssertEqual(MediaTime(seconds: .infinity).nanoseconds, .max)
        XCTAssertEqual((MediaTime(nanoseconds: .max) + MediaTime(seconds: 1)).nanoseconds, .max)
        XCTAssertEqual(MediaTime(seconds: 5) - MediaTime(seconds: 7), MediaTime(seconds: -2))
        XCTAssertEqual(MediaTime(seconds: -2).clamped(to: MediaTime(seconds: 10)), .zero)
        XCTAssertEqual(MediaTime(seconds: 20).clamped(to: MediaTime(seconds: 10)), MediaTime(seconds: 10))
    }

    func testVideoSizeAppliesPixelAspectRatio() {
        XCTAssertEqual(VideoSize(codedWidth: 720, height: 576, parNumerator: 64, parDenominator: 45).width, 1024)
        XCTAssertEqual(VideoSize(codedWidth: 320, height: 240, parNumerator: 1, parDenominator: 1).width, 320)
        XCTAssertEqual(VideoSize(codedWidth: 320, height: 240, parNumerator: 0, parDenominator: 0).width, 320)
    }

    func testLocationsBecomeURIs() throws {
        XCTAssertEqual(try MediaLocation.uri(for: "/tmp/a b.mp4"), "file:///tmp/a%20b.mp4")
        XCTAssertEqual(try MediaLocation.uri(for: "http://127.0.0.1:8080/x.mp4"), "http://127.0.0.1:8080/x.mp4")
        let relative = try MediaLocation.uri(for: "Fixtures/x.mp4")
        XCTAssertTrue(relative.hasPrefix("file:///") && relative.hasSuffix("/Fixtures/x.mp4"), relative)
        XCTAssertThrowsError(try MediaLocation.uri(for: "   ")) { XCTAssertEqual(($0 as? PlayerError)?.kind, .invalidInput) }
        XCTAssertFalse(MediaLocation.looksLikeURI("C:"))
        XCTAssertFalse(MediaLocation.looksLikeURI("plain/path.mp4"))
        XCTAssertTrue(MediaLocation.looksLikeURI("rtsp://h/x"))
    }

    func testHeadlessSelectionAvoidsAutoSinks() {
        var notes: [String] = []
        XCTAssertEqual(SinkSelection.videoDescription(.automatic, environment: [:], notes: &notes), "fakevideosink")
        XCTAssertEqual(notes, ["no display (DISPLAY and WAYLAND_DISPLAY unset); using fakevideosink"])
        XCTAssertNil(SinkSelection.videoDescription(.disabled, environment: ["DISPLAY": ":0"], notes: &notes))
        XCTAssertEqual(SinkSelection.audioDescription(.description("fakesink"), environment: [:], notes: &notes), "fakesink")
        XCTAssertEqual(notes.count, 1)
    }

    func testCubicVolumeSteps() {
        XCTAssertEqual(VolumeScale.linear(fromCubic: 1), 1, accuracy: 1e-9)
        XCTAssertEqual(VolumeScale.linear(fromCubic: 0.5), 0.125, accuracy: 1e-9)
        XCTAssertEqual(VolumeScale.step(linear: 1, by: -0.1), 0.729, accuracy: 1e-9)
        XCTAssertEqual(VolumeScale.step(linear: 0, by: -0.1), 0)
    }
}
