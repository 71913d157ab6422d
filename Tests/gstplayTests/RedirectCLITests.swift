import Foundation
import TestSupport
import XCTest

/// A server that redirects to a local file: gstplay ends the item with one clear line (exit 1)
/// instead of playing the file (before, a local MP3 played to the end under the http URL).
final class RedirectCLITests: XCTestCase, CLICorpus {
    func testARedirectToAFileURIFailsWithOneLine() throws {
        let server = try HTTPTestServer()
        defer { server.stop() }
        let fileURI = URL(fileURLWithPath: TestMedia.path("mp3-4s.mp3")).absoluteString
        let location = server.url("/redirect-to?location=" + (fileURI.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? fileURI))
        let outcome = try run("HTTP 302 to file://", ["--no-cache", location], timeout: 30)
        assertOneItemError(outcome, input: location,
                           ["the server redirected to '\(fileURI)': a redirect may only lead to http:// or https:// (HTTP 302)"])
        let json = try run("HTTP 302 to file:// (--json)", ["--json", "--no-cache", location], timeout: 30)
        let error = json.events("error").first
        XCTAssertEqual(error?["cause"] as? String, "redirect-refused", json.stdout)
        XCTAssertEqual(json.events("eos").count, 0, "the local file is not played")
    }
}
