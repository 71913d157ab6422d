@testable import BackendCore
@testable import BackendThumbnails
import Backend
import TestSupport
import XCTest

/// Pure logic of snapshots and thumbnails: sizing, time spreading, sheet layout.
final class ThumbnailValueTests: XCTestCase {
    func testFittingAppliesThePixelAspectRatioThenScalesDown() {
        func fit(_ w: Int, _ h: Int, _ n: Int, _ d: Int, _ max: ImageSize?) -> [Int] {
            let size = ImageSize.fitting(codedWidth: w, codedHeight: h, parNumerator: n, parDenominator: d, in: max)
            return [size.width, size.height]
        }
        XCTAssertEqual(fit(720, 576, 64, 45, nil), [1024, 576])
        XCTAssertEqual(fit(720, 576, 16, 15, nil), [768, 576])
        XCTAssertEqual(fit(720, 576, 16, 15, ImageSize(width: 240)), [240, 180])
        XCTAssertEqual(fit(320, 240, 1, 1, ImageSize(width: 640)), [320, 240], "never scaled up")
        XCTAssertEqual(fit(320, 240, 1, 1, ImageSize(width: 1000, height: 60)), [80, 60])
        XCTAssertEqual(fit(320, 240, 0, 0, ImageSize(width: 0, height: -5)), [320, 240], "zero PAR and bounds ignored")
        XCTAssertEqual(fit(4000, 2, 1, 1, ImageSize(width: 100)), [100, 1], "at least one pixel")
    }

    func testCountResolvesToTheMiddlesOfEqualParts() throws {
        let times = try ThumbnailTimes.count(4).resolve(duration: MediaTime(seconds: 10))
        XCTAssertEqual(times.map(\.seconds), [1.25, 3.75, 6.25, 8.75])
        XCTAssertEqual(try ThumbnailTimes.times([.zero]).resolve(duration: nil), [.zero])
        XCTAssertThrowsError(try ThumbnailTimes.count(3).resolve(duration: nil)) {
            XCTAssertEqual(($0 as? ImageError)?.kind, .unknownDuration)
        }
        XCTAssertThrowsError(try ThumbnailTimes.count(0).resolve(duration: .zero))
        XCTAssertThrowsError(try ThumbnailTimes.times([]).resolve(duration: .zero))
    }

    func testSheetLayoutCentresTilesInEqualCells() {
        let layout = ContactSheet.Layout(sizes: [(160, 120), (160, 120), (100, 120)], columns: 2, spacing: 4)
        XCTAssertEqual([layout.width, layout.height], [2 * 160 + 3 * 4, 2 * 120 + 3 * 4])
        XCTAssertEqual(layout.origins.map(\.x), [4, 168, 4 + 30])
        XCTAssertEqual(layout.origins.map(\.y), [4, 4, 128])
        let wide = ContactSheet.Layout(sizes: [(10, 10), (10, 10)], columns: 8, spacing: 0)
        XCTAssertEqual([wide.width, wide.height], [20, 10], "no more columns than tiles")
    }

    func testImageFormatNames() {
        XCTAssertEqual(ImageFormat.png.fileExtension, "png")
        XCTAssertEqual(ImageFormat.jpeg.fileExtension, "jpg")
        XCTAssertEqual(ImageFormat.jpeg.mediaType, "image/jpeg")
    }
}
