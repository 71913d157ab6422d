@testable import BackendCore
import XCTest

/// `String.replacingAll(_:with:)`: every occurrence, by UTF-8 bytes (so by Unicode scalars),
/// nothing else touched, embedded NULs included.
final class StringReplacingTests: XCTestCase {
    func testEveryOccurrenceIsReplacedAndTheRestKept() {
        XCTAssertEqual("a&b&&c&".replacingAll("&", with: "&amp;"), "a&amp;b&amp;&amp;c&amp;")
        XCTAssertEqual("$RepresentationID$/$Bandwidth$.m4s".replacingAll("$Bandwidth$", with: "800000"), "$RepresentationID$/800000.m4s")
        XCTAssertEqual("no match here".replacingAll("#", with: "%23"), "no match here")
        XCTAssertEqual("unchanged".replacingAll("", with: "x"), "unchanged", "an empty target replaces nothing")
        XCTAssertEqual("aaa".replacingAll("aa", with: "b"), "ba", "left to right, without overlaps")
        XCTAssertEqual("".replacingAll("a", with: "b"), "")
    }

    func testScalarsNotCharactersAndNonASCIIKeptWhole() {
        // `&lt;` then a combining mark: as Characters the `;` and the mark are one grapheme.
        XCTAssertEqual("a &lt;\u{33C} b".replacingAll("&lt;", with: "<"), "a <\u{33C} b")
        XCTAssertEqual("école #1 — 日本#".replacingAll("#", with: "%23"), "école %231 — 日本%23")
        XCTAssertEqual("ü".replacingAll("u", with: "x"), "ü", "a precomposed ü holds no u")
    }

    func testTextAfterAnEmbeddedNULIsReplacedToo() {
        XCTAssertEqual("a&b\u{0}c&d".replacingAll("&", with: "+"), "a+b\u{0}c+d")
        XCTAssertEqual("\u{0}<\u{0}".replacingAll("<", with: "&lt;"), "\u{0}&lt;\u{0}")
    }
}
