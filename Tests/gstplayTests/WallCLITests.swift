import Foundation
import TestSupport
import XCTest

/// `--wall`: a bad value is one `gstplay: error: --wall:` line with the reason, exit 2, before
/// anything plays (the tiles themselves: VideoWallTests, VideoWallDisplayTests under Xvfb).
final class WallCLITests: XCTestCase {
    func testBadWallValuesAreUsageErrors() throws {
        for (value, reason) in [("3x1:5,0", "the tile must be inside the wall (column 0 to 2, row 0 to 0)"),
                                ("2x1:0,0:-1", "the bezel must be pixels"), ("two", "expected two or three parts")] {
            let result = try GstplayProcess.run(["--quiet", "--wall", value, TestMedia.vp8])
            XCTAssertEqual(result.status, 2, "\(value): \(result.stderr)")
            XCTAssertTrue(result.stderr.hasPrefix("gstplay: error: --wall: \(reason)"), result.stderr)
            XCTAssertTrue(result.stderr.contains("(got '\(value)'; the form is COLSxROWS:COL,ROW[:BEZEL], e.g. 2x1:0,0)"), result.stderr)
        }
    }
}
