@testable import BackendAdaptive
@testable import BackendCore
@testable import BackendTracks
@testable import gstplay
import Backend
import BackendControl
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

    /// `hls` (a seed at the extremes, before the long runs): `BANDWIDTH=9223372036854775807` made
    /// `AdaptivePolicy.connectionSpeed` overflow (`+ 999`, `2 *`) and trap — a hostile manifest
    /// killed the player. Extreme ladders now give a clamped speed.
    func testExtremeBandwidthsGiveAClampedConnectionSpeed() {
        let base = "http://127.0.0.1/x/master.m3u8"
        for text in ["#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=9223372036854775807\na.m3u8\n#EXT-X-STREAM-INF:BANDWIDTH=1000\nb.m3u8\n",
                     "#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=-9223372036854775808\na.m3u8\n#EXT-X-STREAM-INF:BANDWIDTH=1000,AVERAGE-BANDWIDTH=9223372036854775807\nb.m3u8\n"] {
            guard case .master(let variants) = MasterPlaylist.parse(text, baseURI: base) else { XCTFail("not a master"); continue }
            for index in variants.indices {
                XCTAssertGreaterThanOrEqual(AdaptivePolicy.connectionSpeed(selecting: index, of: variants), 1)
            }
        }
        let top = [Variant(index: 0, bandwidth: 1000, uri: "a"), Variant(index: 1, bandwidth: .max, uri: "b")]
        XCTAssertEqual(AdaptivePolicy.connectionSpeed(selecting: 1, of: top), UInt32.max)
        XCTAssertEqual(AdaptivePolicy.connectionSpeed(selecting: 0, of: top), UInt32.max)
        // Ordinary ladders keep their exact values.
        let ladder = [Variant(index: 0, bandwidth: 1_280_000, uri: "a"), Variant(index: 1, bandwidth: 2_560_000, uri: "b")]
        XCTAssertEqual(AdaptivePolicy.connectionSpeed(selecting: 0, of: ladder), 2559)
        XCTAssertEqual(AdaptivePolicy.connectionSpeed(selecting: 1, of: ladder), 5121)
    }

    /// `playlist` (long run): `playlist save` wrote a path holding a control character raw, so
    /// the saved file was refused as binary; a path or title holding `#EXT-X-` made the saved
    /// file load as one HLS stream. Such paths are now written as `file://` URIs, control
    /// characters in titles as spaces, and only a line starting with `#EXT-X-` marks HLS.
    func testSavedPlaylistsLoadBackWhateverTheNames() throws {
        let directory = NSTemporaryDirectory() + "/gstplay-findings-save-\(getpid())"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let items = [QueueItem(uri: "file:///music/a%19b.mp3", title: "t\u{1}x"),
                     QueueItem(uri: "file:///music/%23EXT-X-c.mp3", title: "#EXT-X-title"),
                     QueueItem(uri: "file:///music/%20lead.mp3"),
                     QueueItem(uri: "http://example.com/x.ogg")]
        try PlaylistFile.saveM3U(items, to: directory + "/saved.m3u")
        guard case .items(let loaded, _) = try PlaylistFile.load(directory + "/saved.m3u") else { return XCTFail("not items") }
        XCTAssertEqual(loaded.map(\.uri), items.map(\.uri))
        XCTAssertEqual(loaded.map(\.title), ["t x", "#EXT-X-title", nil, nil])
    }

    /// `config`: a file with CRLF line endings was read as one line (`"\r\n"` is one Character,
    /// so `split(separator: "\n")` never split it): the second option's `=` became part of the
    /// first option's value. Each kind of line break now ends a line.
    func testConfigLinesEndAtEveryKindOfLineBreak() throws {
        for text in ["volume=50\r\nspeed=2\r\n", "volume=50\nspeed=2\n", "volume=50\rspeed=2", "volume=50\u{2028}speed=2"] {
            let document = try ConfigFile.parse(text, file: "gstplay.conf")
            XCTAssertEqual(document.top.map(\.name), ["volume", "speed"], text.debugDescription)
            XCTAssertEqual(document.top.map(\.value), ["50", "2"], text.debugDescription)
            XCTAssertEqual(document.top.map(\.line), [1, 2], text.debugDescription)
        }
    }

    /// `config`: `----name=value` lost one `--` and kept the other, so an option named `--name`
    /// reached the expansion; `--[x` became a name that reads as a section when written back. A
    /// name that is not ASCII letters, digits, `-` and `_` is now refused with its line.
    func testAConfigOptionNameNeverStartsWithADash() {
        XCTAssertThrowsError(try ConfigFile.parse("volume=50\n----loop=one\n", file: "gstplay.conf")) { error in
            XCTAssertEqual((error as? ConfigFile.Failure)?.description, "gstplay.conf:2: '--loop' is no option name")
        }
        XCTAssertEqual(try ConfigFile.parse("--loop=one\n", file: "gstplay.conf").top.map(\.name), ["loop"], "one -- is allowed, as mpv")
        // `--[x` lost its dashes and became a name that, written back, reads as a section.
        for line in ["--[railil[]\u{0E}--volu-x", "vol\u{E9}me=1", "_x=1"] {
            XCTAssertThrowsError(try ConfigFile.parse(line + "\n", file: "c.conf"), line.debugDescription)
        }
        XCTAssertEqual(try ConfigFile.parse("sub-auto=fuzzy\nab_loop=1\n", file: "c.conf").top.map(\.name), ["sub-auto", "ab_loop"])
    }
}
