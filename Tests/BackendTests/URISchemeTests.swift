@testable import BackendCore
import Backend
import XCTest

/// The one scheme check (`gst_uri_get_protocol`): case-insensitive, and no prefix tricks.
final class URISchemeTests: XCTestCase {
    func testSchemesAreReadAsGStreamerReadsThem() {
        XCTAssertEqual(URIScheme.of("HTTP://example.com/a.mp3"), "http")
        XCTAssertTrue(URIScheme.isHTTP("HTTPS://example.com/a.mp3"), "a scheme is case-insensitive")
        XCTAssertTrue(URIScheme.isHTTP("http://127.0.0.1:8080/x"))
        XCTAssertFalse(URIScheme.isHTTP("httpx://example.com/a.mp3"))
        XCTAssertFalse(URIScheme.isHTTP("file:///http://x"))
        XCTAssertTrue(URIScheme.isFile("file:///music/a%20b.mp3"))
        XCTAssertTrue(URIScheme.isFile("FILE:///music/a.mp3"))
        XCTAssertFalse(URIScheme.isFile("/music/file://a.mp3"), "a path is no URI")
        XCTAssertNil(URIScheme.of("/music/a.mp3"))
        XCTAssertNil(URIScheme.of(""))
        XCTAssertEqual(MediaLocation.httpProblem("HTTP://"), MediaLocation.httpProblem("http://"),
                       "an upper-case scheme is checked as http too")
    }
}
