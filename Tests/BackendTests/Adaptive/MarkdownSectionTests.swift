import StreamingQoE
import XCTest

/// The marker-delimited section `gstplay-bench abr-qoe --section` rewrites in docs/BENCHMARKS.md:
/// replaced in place, appended when absent, the hand-written text below it kept, and
/// one end marker left where a section had been pasted back over itself.
final class MarkdownSectionTests: XCTestCase {
    let markers = MarkdownSection(begin: "<!-- s:begin -->", end: "<!-- s:end -->")

    func testTheSectionIsReplacedInPlaceAndTheReadingBelowKept() {
        let document = "# Top\n\n<!-- s:begin -->\nold\n<!-- s:end -->\n\n### Reading\nby hand\n"
        let replaced = markers.replace(in: document, with: "<!-- s:begin -->\nnew\n<!-- s:end -->\n")
        XCTAssertEqual(replaced, "# Top\n\n<!-- s:begin -->\nnew\n<!-- s:end -->\n\n### Reading\nby hand\n")
        XCTAssertEqual(markers.extract(from: replaced), "<!-- s:begin -->\nnew\n<!-- s:end -->\n")
        XCTAssertEqual(markers.tail(of: replaced), "<!-- s:begin -->\nnew\n<!-- s:end -->\n\n### Reading\nby hand\n",
                       "make bench rewrites the file and keeps the section with its reading")
    }

    func testAbsentSectionIsAppendedAfterABlankLine() {
        XCTAssertEqual(markers.replace(in: "# Top\ntext", with: "<!-- s:begin -->\nx\n<!-- s:end -->\n"),
                       "# Top\ntext\n\n<!-- s:begin -->\nx\n<!-- s:end -->\n")
        XCTAssertEqual(markers.replace(in: "", with: "<!-- s:begin -->\n<!-- s:end -->\n"), "<!-- s:begin -->\n<!-- s:end -->\n")
        XCTAssertNil(markers.extract(from: "<!-- s:begin -->\nno end"))
        XCTAssertNil(markers.tail(of: "<!-- s:end -->\n<!-- s:begin -->\n"), "an end before the begin is no section")
    }

    func testADuplicatedEndMarkerGoesWithTheOldSection() {
        let document = "<!-- s:begin -->\nold\n<!-- s:end -->\n\n<!-- s:end -->\n\n### Reading\n"
        let replaced = markers.replace(in: document, with: "<!-- s:begin -->\nnew\n<!-- s:end -->\n")
        XCTAssertEqual(replaced, "<!-- s:begin -->\nnew\n<!-- s:end -->\n\n### Reading\n")
        XCTAssertEqual(replaced.components(separatedBy: "<!-- s:end -->").count, 2, "one end marker")
        // Replacing again changes nothing.
        XCTAssertEqual(markers.replace(in: replaced, with: "<!-- s:begin -->\nnew\n<!-- s:end -->\n"), replaced)
    }
}
