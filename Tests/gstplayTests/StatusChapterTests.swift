import Backend
import XCTest
@testable import BackendControl
@testable import gstplay

/// The `status` reply carries the chapter playing now (`chapter`: index, title, start, end),
/// null without chapters (an additive wire change).
final class StatusChapterTests: XCTestCase {
    func testTheStatusReplyCarriesTheCurrentChapter() throws {
        let line = Reply(id: .int(2), error: nil, data: .status(GoldenWireLines.chapterStatus.wire)).line
        let json = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        let chapter = try XCTUnwrap((json["data"] as? [String: Any])?["chapter"] as? [String: Any], line)
        XCTAssertEqual(chapter["index"] as? Int, 1)
        XCTAssertEqual(chapter["title"] as? String, "Middle, part one")
        XCTAssertEqual(chapter["start"] as? Double, 2)
        XCTAssertEqual(chapter["end"] as? Double, 3)
    }

    func testTheStatusReplyHasANullChapterWithoutChapters() throws {
        let idle = StatusReport(snapshot: PlayerSnapshot(), index: nil, count: 0, location: nil)
        let line = Reply(id: .absent, error: nil, data: .status(idle.wire)).line
        let data = try XCTUnwrap((JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])?["data"] as? [String: Any])
        XCTAssertTrue(data.keys.contains("chapter"), line)
        XCTAssertTrue(data["chapter"] is NSNull, line)
    }
}
