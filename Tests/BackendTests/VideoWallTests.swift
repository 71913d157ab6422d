import BackendWindow
import XCTest

/// `--wall`'s value and the crop of each tile (pure): tiles side by side cover the picture, a
/// bezel hides a strip between them, bad values are refused with a reason.
final class VideoWallTests: XCTestCase {
    func testTwoColumnsSplitThePictureInHalves() throws {
        let left = try VideoWall.parse("2x1:0,0").get()
        let right = try VideoWall.parse("2x1:1,0").get()
        XCTAssertEqual(left.crop(codedWidth: 640, height: 360), VideoCrop(left: 0, right: 320, top: 0, bottom: 0))
        XCTAssertEqual(right.crop(codedWidth: 640, height: 360), VideoCrop(left: 320, right: 0, top: 0, bottom: 0))
    }

    func testTilesOfAThreeByTwoWallCoverThePictureWithoutOverlap() throws {
        var covered = 0
        for row in 0..<2 {
            for column in 0..<3 {
                let crop = try VideoWall.parse("3x2:\(column),\(row)").get().crop(codedWidth: 641, height: 361)
                covered += (641 - crop.left - crop.right) * (361 - crop.top - crop.bottom)
            }
        }
        XCTAssertEqual(covered, 641 * 361)
    }

    func testBezelInPixelsOrAsAFractionHidesAStripBetweenTiles() throws {
        // 20 pixels: tiles of (640 - 20) / 2 = 310, the right one starting at 330.
        XCTAssertEqual(try VideoWall.parse("2x1:0,0:20").get().crop(codedWidth: 640, height: 360), VideoCrop(left: 0, right: 330, top: 0, bottom: 0))
        XCTAssertEqual(try VideoWall.parse("2x1:1,0:20").get().crop(codedWidth: 640, height: 360), VideoCrop(left: 330, right: 0, top: 0, bottom: 0))
        // 0.1 of a tile: tile = 640 / 2.1 ≈ 304.8, gap ≈ 30.5.
        XCTAssertEqual(try VideoWall.parse("2x1:1,0:0.1").get().crop(codedWidth: 640, height: 360), VideoCrop(left: 335, right: 0, top: 0, bottom: 0))
        // A bezel wider than the picture counts as none.
        XCTAssertEqual(try VideoWall.parse("2x1:1,0:5000").get().crop(codedWidth: 640, height: 360), VideoCrop(left: 320, right: 0, top: 0, bottom: 0))
    }

    func testBadValuesAreRefusedWithAReason() {
        for (text, reason) in [("2x1", "two or three parts"), ("2:0,0", "COLSxROWS"), ("0x1:0,0", "1 to 64"), ("2x1:2,0", "inside the wall"),
                               ("2x1:0", "COL,ROW"), ("2x1:0,0:-3", "bezel"), ("2x1:0,0:1.5", "bezel"), ("2x1:0,0:nan", "bezel")] {
            guard case .failure(let error) = VideoWall.parse(text) else { XCTFail("\(text) accepted"); continue }
            XCTAssertTrue(error.message.contains(reason), "\(text): \(error.message)")
        }
    }
}
