import BackendCore
@testable import BackendOSD
import XCTest

/// Where the seek preview draws and which time the pointer over the bar points at (pure).
final class SeekPreviewLayoutTests: XCTestCase {
    private let layout = SeekPreviewLayout(frameWidth: 320, frameHeight: 240)

    func testTheBarRunsAlongTheBottomAndFillsUpToTheTarget() {
        XCTAssertEqual(layout.bar, .init(x: 8, y: 229, width: 304, height: 5))
        XCTAssertEqual(layout.filled(fraction: 0.5), .init(x: 8, y: 229, width: 152, height: 5))
        XCTAssertNil(layout.filled(fraction: 0))
        XCTAssertEqual(layout.filled(fraction: 7)?.width, 304, "clamped to the bar")
    }

    func testThePictureSitsAboveTheBarAtTheTargetAndInsideTheFrame() {
        let middle = layout.picture(width: 120, height: 90, fraction: 0.5)
        XCTAssertEqual(middle, .init(x: 120, y: 159, width: 80, height: 60))
        XCTAssertLessThan(middle.y + middle.height, layout.bar.y, "above the bar")
        XCTAssertEqual(layout.picture(width: 120, height: 90, fraction: 0).x, layout.borderWidth, "kept inside on the left")
        let end = layout.picture(width: 120, height: 90, fraction: 1)
        XCTAssertEqual(end.x + end.width, 320 - layout.borderWidth, "kept inside on the right")
        let tall = layout.picture(width: 90, height: 160, fraction: 0.5)
        XCTAssertEqual(tall.height, 96, "at most 40 % of the frame's height")
        XCTAssertEqual(layout.borderWidth, 4)
        XCTAssertEqual(layout.border(around: middle), .init(x: 116, y: 155, width: 88, height: 68))
    }

    func testThePointerOverTheBottomStripPointsAtATimeAndElsewhereAtNone() {
        XCTAssertEqual(layout.hoverZoneTop, 205)
        XCTAssertEqual(try XCTUnwrap(layout.fraction(pointerX: 160, y: 230)), 0.5, accuracy: 1e-9)
        XCTAssertEqual(layout.fraction(pointerX: 2, y: 239), 0, "left of the bar: its start")
        XCTAssertEqual(layout.fraction(pointerX: 318, y: 206), 1, "right of the bar: its end")
        XCTAssertNil(layout.fraction(pointerX: 160, y: 200), "above the strip")
        XCTAssertNil(layout.fraction(pointerX: .nan, y: 230))
        XCTAssertNil(layout.fraction(pointerX: 400, y: 230), "outside the frame")
    }

    func testTheHoverMessageNamesTheTime() {
        XCTAssertEqual(OSDText.preview(MediaTime(seconds: 83.6)), "Preview 1:23")
    }
}
