@testable import BackendCore
@testable import BackendThumbnails
import Backend
import Foundation
import TestSupport
import XCTest

/// `ContactSheet` composes real thumbnails with GStreamer; the sheet is decoded back and each
/// tile, the gaps and the captions are checked.
final class ContactSheetTests: XCTestCase {
    func testTilesLandInTheirCellsWithCaptions() async throws {
        let shots = try await ThumbnailGenerator(location: TestMedia.colourSteps, maximumSize: ImageSize(width: 160)).generate(at: .count(4))
        let tiles = shots.map { ContactSheet.Tile(image: $0.image, caption: $0.actualTime.formatted(fractionDigits: 1)) }
        let sheet = try ContactSheet.compose(tiles, columns: 2, spacing: 4)
        XCTAssertEqual(sheet.format, .png)
        XCTAssertEqual([sheet.width, sheet.height], [332, 252])
        XCTAssertEqual(Array(sheet.bytes.prefix(4)), [0x89, 0x50, 0x4E, 0x47], "PNG signature")
        let decoded = try XCTUnwrap(DecodedImage.decode(sheet.bytes))
        XCTAssertEqual([decoded.width, decoded.height], [332, 252])
        let expected: [DecodedImage.Pixel] = [.red, .green, .blue, .white]
        let layout = ContactSheet.Layout(sizes: Array(repeating: (160, 120), count: 4), columns: 2, spacing: 4)
        for (index, origin) in layout.origins.enumerated() {
            // The middle of the tile (below the burnt-in time, above the caption).
            let centre = decoded.pixel(x: origin.x + 80, y: origin.y + 60)
            XCTAssertTrue(centre.isClose(to: expected[index]), "tile \(index): \(centre)")
            // The caption: text on a shaded band in the lower left corner differs from the tile.
            var captionPixels = 0
            for y in (origin.y + 90)..<(origin.y + 118) {
                for x in (origin.x + 2)..<(origin.x + 80) where !decoded.pixel(x: x, y: y).isClose(to: expected[index], tolerance: 60) {
                    captionPixels += 1
                }
            }
            XCTAssertGreaterThan(captionPixels, 100, "tile \(index) has a caption")
            // Right half of the bottom rows: no caption there.
            XCTAssertTrue(decoded.pixel(x: origin.x + 150, y: origin.y + 115).isClose(to: expected[index]), "tile \(index) right corner")
        }
        let grey = DecodedImage.Pixel(r: 0x40, g: 0x40, b: 0x40)
        XCTAssertTrue(decoded.pixel(x: 1, y: 1).isClose(to: grey, tolerance: 6), "the border is dark grey: \(decoded.pixel(x: 1, y: 1))")
        XCTAssertTrue(decoded.pixel(x: 165, y: 60).isClose(to: grey, tolerance: 6), "the gap between columns is dark grey")
    }

    func testBadArgumentsAreRefused() {
        XCTAssertThrowsError(try ContactSheet.compose([], columns: 4)) { XCTAssertEqual(($0 as? ImageError)?.kind, .invalidArgument) }
        let junk = ContactSheet.Tile(image: Image(format: .png, width: 10, height: 10, bytes: Data([1, 2, 3])), caption: "x")
        XCTAssertThrowsError(try ContactSheet.compose([junk], columns: 0)) { XCTAssertEqual(($0 as? ImageError)?.kind, .invalidArgument) }
        XCTAssertThrowsError(try ContactSheet.compose([junk], columns: 1)) { XCTAssertEqual(($0 as? ImageError)?.kind, .conversion, "\($0)") }
    }
}
