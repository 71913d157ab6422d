@testable import BackendCore
@testable import BackendThumbnails
import Backend
import CGStreamer
import Foundation
import TestSupport
import XCTest

/// Which H.264 the thumbnail pipelines let `openh264dec` decode once
/// `ThumbnailGenerator.preferLightDecoders()` ranked it first (the rest goes to `avdec_h264`),
/// on the caps `h264parse` writes; and the representative-frame places.
final class ThumbnailDecodingTests: XCTestCase {
    private func decodes(_ text: String) -> Bool {
        GStreamerRuntime.ensureInitialized()
        guard let caps = gst_caps_from_string(text) else { XCTFail("bad caps \(text)"); return false }
        defer { gst_caps_unref(caps) }
        return ThumbnailDecoding.openH264Decodes(caps)
    }

    func testOpenH264TakesProgressiveEightBitFourTwoZeroOnly() {
        let base = "video/x-h264, stream-format=avc, alignment=au"
        XCTAssertTrue(decodes("\(base), profile=constrained-baseline, chroma-format=4:2:0, bit-depth-luma=(uint)8, interlace-mode=progressive"))
        XCTAssertTrue(decodes("\(base), profile=high"))
        XCTAssertTrue(decodes(base), "fields h264parse did not set count as the common case")
        XCTAssertFalse(decodes("\(base), profile=high, interlace-mode=mixed"), "interlaced")
        XCTAssertFalse(decodes("\(base), profile=high-10, bit-depth-luma=(uint)10"), "10-bit")
        XCTAssertFalse(decodes("\(base), profile=high-4:2:2, chroma-format=4:2:2"), "4:2:2")
        XCTAssertFalse(decodes("\(base), profile=high-4:4:4"), "a profile outside openh264dec's template")
    }

    func testRepresentativePlacesFollowTheDuration() {
        let choice = RepresentativeFrame()
        XCTAssertEqual(choice.times(duration: MediaTime(seconds: 9)).map(\.seconds), [3, 6, 0.9, 8.1, 4.5])
        XCTAssertEqual(choice.times(duration: nil), [.zero], "no duration: the first frame")
        XCTAssertEqual(RepresentativeFrame(places: [0.5, 1.0, -0.1]).times(duration: MediaTime(seconds: 2)).map(\.seconds), [1],
                       "places outside 0..<1 are dropped")
    }

    func testARepresentativeThumbnailSkipsTheBlackStart() async throws {
        // black-start-4s.webm: black until 3 s (so also at 1/3 and 2/3), SMPTE bars after.
        let generator = ThumbnailGenerator(location: TestMedia.path("black-start-4s.webm"), maximumSize: ImageSize(width: 96, height: 96))
        let thumbnail = try await generator.representativeThumbnail()
        XCTAssertGreaterThanOrEqual(thumbnail.actualTime.seconds, 3.0, "the 9/10 place (3.6 s) is the first with a picture")
        let image = try XCTUnwrap(DecodedImage.decode(thumbnail.image.bytes))
        XCTAssertEqual([image.width, image.height], [96, 72])
        XCTAssertGreaterThan(image.brightnessDeviation, 30)
        // Every place uniform (a 2.5 s stretch of black): the most varied is still returned, no error.
        let black = try await ThumbnailGenerator(location: TestMedia.path("black-start-4s.webm"))
            .representativeThumbnail(RepresentativeFrame(places: [0.1, 0.3, 0.5]))
        XCTAssertTrue(try XCTUnwrap(DecodedImage.decode(black.image.bytes)).isBlack)
    }
}
