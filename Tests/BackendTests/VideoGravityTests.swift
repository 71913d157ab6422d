@testable import BackendCore
@testable import BackendWindow
import Backend
import XCTest

/// The fill crop arithmetic of ``VideoCrop/filling(_:areaWidth:areaHeight:)`` (pure).
final class VideoGravityTests: XCTestCase {
    private let vga = VideoSize(codedWidth: 320, height: 240, parNumerator: 1, parDenominator: 1)

    func testSameShapeNeedsNoCrop() {
        XCTAssertEqual(VideoCrop.filling(vga, areaWidth: 640, areaHeight: 480), .none)
    }

    func testWiderAreaCutsTopAndBottom() {
        XCTAssertEqual(VideoCrop.filling(vga, areaWidth: 320, areaHeight: 120), VideoCrop(left: 0, right: 0, top: 60, bottom: 60))
        // 16:9 area: keeps 320 × 180 of 320 × 240.
        XCTAssertEqual(VideoCrop.filling(vga, areaWidth: 1280, areaHeight: 720), VideoCrop(left: 0, right: 0, top: 30, bottom: 30))
    }

    func testTallerAreaCutsTheSides() {
        // A square area keeps 240 × 240: 80 columns go, 40 each side.
        XCTAssertEqual(VideoCrop.filling(vga, areaWidth: 500, areaHeight: 500), VideoCrop(left: 40, right: 40, top: 0, bottom: 0))
    }

    func testNonSquarePixelsAreCroppedInCodedPixels() {
        // 720x576 at PAR 64/45 displays 1024x576; a 4:3 area keeps 768 display = 540 coded columns.
        let pal = VideoSize(codedWidth: 720, height: 576, parNumerator: 64, parDenominator: 45)
        XCTAssertEqual(VideoCrop.filling(pal, areaWidth: 800, areaHeight: 600), VideoCrop(left: 90, right: 90, top: 0, bottom: 0))
    }

    func testOddCutsPutTheExtraPixelOnTheFarSide() {
        XCTAssertEqual(VideoCrop.filling(vga, areaWidth: 321, areaHeight: 120).top + VideoCrop.filling(vga, areaWidth: 321, areaHeight: 120).bottom, 120)
        let crop = VideoCrop.filling(VideoSize(codedWidth: 101, height: 100, parNumerator: 1, parDenominator: 1), areaWidth: 100, areaHeight: 100)
        XCTAssertEqual(crop, VideoCrop(left: 0, right: 1, top: 0, bottom: 0))
    }

    func testDegenerateAreasDoNotCrop() {
        XCTAssertEqual(VideoCrop.filling(vga, areaWidth: 0, areaHeight: 100), .none)
        XCTAssertEqual(VideoCrop.filling(vga, areaWidth: 100, areaHeight: -1), .none)
    }

    func testGravityNamesAreStable() {
        XCTAssertEqual(VideoGravity.allCases.map(\.rawValue), ["fit", "fill", "stretch"])
    }
}
