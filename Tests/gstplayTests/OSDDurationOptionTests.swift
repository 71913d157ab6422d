import Backend
@testable import gstplay
import TestSupport
import XCTest

/// `--osd-duration <ms>` becomes `StandardFeatures.osd.duration` (the library's 1.5 s without it);
/// 0 or more than a minute is a usage error (exit 2).
final class OSDDurationOptionTests: XCTestCase {
    func testTheOptionSetsHowLongTheOSDStays() throws {
        XCTAssertEqual(try GstplayCommand.parse(["x.mp4"]).makeOptions().standardFeatures().osd.duration, .milliseconds(1500))
        XCTAssertEqual(try GstplayCommand.parse(["--osd-duration", "4000", "x.mp4"]).makeOptions().standardFeatures().osd.duration, .seconds(4))
        XCTAssertEqual(try GstplayCommand.parse(["--osd-duration=1", "x.mp4"]).makeOptions().standardFeatures().osd.duration, .milliseconds(1))
    }

    func testZeroIsAUsageError() throws {
        let run = try GstplayProcess.run(["--osd-duration=0", "x.mp4"])
        XCTAssertEqual(run.status, 2)
        XCTAssertTrue(run.stderr.contains("gstplay: error: --osd-duration must be 1 to 60000 milliseconds (got 0)"), run.stderr)
    }
}
