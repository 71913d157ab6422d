@testable import Backend
import Foundation
import XCTest

/// What the fuzz targets found (docs/RELIABILITY.md §4), each pinned by its expected result. The
/// inputs are also in Tests/Fuzz/corpus, where the invariants check them.
final class FindingsTests: XCTestCase {
    /// `subtitle`: a combining mark after `>` or `;` made one Character with it, so the tag
    /// never closed (the rest of the cue vanished) and the entity was not decoded.
    func testCueMarkupIsReadByScalarsNotCharacters() {
        XCTAssertEqual(CueText.plain(fromMarkup: "<i>x</i>\u{301} after the tag\n"), "x\u{301} after the tag")
        XCTAssertEqual(CueText.plain(fromMarkup: "a &lt;\u{33C} b"), "a <\u{33C} b")
        XCTAssertEqual(CueText.plain(fromMarkup: "two lines\r\nend\r\n"), "two lines\r\nend")
        XCTAssertEqual("&amp;\u{301}".replacingAll("&amp;", with: "&"), "&\u{301}")
    }

    /// `playlist`: a `file://` entry was queued as written, so `file:///music/a#b.mp3` reached
    /// playbin with `#b.mp3` as a fragment, and `playlist save` + load changed it.
    func testFileURIEntriesAreQueuedInTheirCanonicalForm() throws {
        let directory = NSTemporaryDirectory() + "gstplay-findings-\(getpid())"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/list.m3u"
        try Data("file:///music/a#b.mp3\nfile:///music/c%20d.flac\n".utf8).write(to: URL(fileURLWithPath: path))
        guard case .items(let items, _) = try PlaylistFile.load(path) else { return XCTFail("not items") }
        XCTAssertEqual(items.map(\.uri), ["file:///music/a%23b.mp3", "file:///music/c%20d.flac"])
    }
}
