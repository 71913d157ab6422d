@testable import BackendCore
@testable import BackendThumbnails
import Backend
import Foundation
import TestSupport
import XCTest

/// A contact sheet never repeats a frame. `h264-aac-10s.mp4` has a key frame every
/// second, so 16 key-unit seeks over 10 s cannot all land on different key frames; the generator
/// must fall back to accurate seeks for the tiles whose key frame another tile already shows.
/// Checked on the decoded pixels of every thumbnail and of every tile of the composed sheet.
final class DistinctFramesTests: XCTestCase {
    func testSixteenKeyUnitTilesOfTheTenSecondClipAreAllDifferentFrames() async throws {
        let generator = ThumbnailGenerator(location: TestMedia.path("h264-aac-10s.mp4"), maximumSize: ImageSize(width: 160))
        XCTAssertEqual(generator.seekMode, .keyUnit, "the default mode is the one that repeated frames")
        let shots = try await generator.generate(at: .count(16))
        XCTAssertEqual(shots.count, 16)
        let times = shots.map(\.actualTime.nanoseconds)
        XCTAssertEqual(Set(times).count, 16, "every thumbnail shows another frame time: \(shots.map { $0.actualTime.formatted(fractionDigits: 3) })")
        for (shot, next) in zip(shots, shots.dropFirst()) {
            XCTAssertLessThan(shot.actualTime, next.actualTime, "tiles stay in time order")
        }
        for shot in shots {
            // Never further from its time than the key frame spacing (1 s).
            XCTAssertLessThanOrEqual(abs(shot.actualTime.seconds - shot.requestedTime.seconds), 1.0)
        }
        let images = try shots.map { try XCTUnwrap(DecodedImage.decode($0.image.bytes)) }
        Self.assertPairwiseDistinct(images, what: "thumbnail")

        let tiles = shots.map { ContactSheet.Tile(image: $0.image, caption: nil) }
        let sheet = try XCTUnwrap(DecodedImage.decode(try ContactSheet.compose(tiles, columns: 4, spacing: 4).bytes))
        let layout = ContactSheet.Layout(sizes: shots.map { ($0.image.width, $0.image.height) }, columns: 4, spacing: 4)
        let cells = layout.origins.enumerated().map { index, origin in
            sheet.cropped(x: origin.x, y: origin.y, width: shots[index].image.width, height: shots[index].image.height)
        }
        Self.assertPairwiseDistinct(cells, what: "tile of the sheet")
    }

    func testAccurateModeIsUnchangedAndAFrameCountAboveTheFramesStillAnswers() async throws {
        // 8 tiles over the 2 s clip (key frames every second, 30 fps): accurate seeks land on
        // the frame covering each time, as before.
        let clip = TestMedia.path("par-64-45.mkv")
        var generator = ThumbnailGenerator(location: clip, maximumSize: ImageSize(width: 64), seekMode: .accurate)
        let accurate = try await generator.generate(at: .count(8))
        for shot in accurate {
            XCTAssertLessThanOrEqual(shot.actualTime.nanoseconds, shot.requestedTime.nanoseconds + 1_000_000)
            XCTAssertGreaterThan(shot.actualTime.seconds, shot.requestedTime.seconds - 0.0334)
        }
        // Key-unit: 8 tiles over 2 key frames need accurate fallbacks; all 8 times differ.
        generator.seekMode = .keyUnit
        let keyUnit = try await generator.generate(at: .count(8))
        XCTAssertEqual(Set(keyUnit.map(\.actualTime.nanoseconds)).count, 8, "\(keyUnit.map(\.actualTime.seconds))")
    }

    /// Fails for every pair of images with (almost) no differing pixels: the same frame twice.
    static func assertPairwiseDistinct(_ images: [DecodedImage], what: String, file: StaticString = #filePath, line: UInt = #line) {
        for i in images.indices {
            for j in images.indices where j > i {
                let differing = images[i].differingPixels(from: images[j])
                XCTAssertGreaterThan(differing, 20, "\(what) \(i) and \(what) \(j) show the same frame", file: file, line: line)
            }
        }
    }
}
