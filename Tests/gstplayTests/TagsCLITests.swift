@testable import gstplay
import Backend
import Foundation
import TestSupport
import XCTest

/// Tags and cover art on the command line: `--json` media-info and `tags` events,
/// the text notes and the status line, `gstplay cover`, the console's `cover`, `--visualization`.
final class TagsCLITests: XCTestCase {
    private var scratch: String { NSTemporaryDirectory() + "/tags-cli-\(getpid())-\(name.filter(\.isLetter).suffix(24))" }

    func testJSONCarriesTheMP3sTagsInMediaInfoAndATagsEvent() throws {
        let child = try GstplayProcess(["--json", GstplayProcess.fixture("tagged-cover.mp3")], input: .devNull).started()
        XCTAssertEqual(child.waitForExit(), 0, child.stderr)
        let info = try XCTUnwrap(child.jsonLines.first { $0["event"] as? String == "media-info" }, child.stdout)
        let tags = try XCTUnwrap(info["tags"] as? [String: Any])
        XCTAssertEqual(tags["title"] as? String, "Test Tone")
        XCTAssertEqual(tags["artist"] as? String, "gstplay Fixtures")
        XCTAssertEqual(tags["album"] as? String, "Fixture Album")
        XCTAssertEqual(tags["track_number"] as? Int, 3)
        XCTAssertEqual(tags["genre"] as? String, "Test")
        XCTAssertEqual(tags["date"] as? String, "2024")
        let cover = try XCTUnwrap(tags["cover"] as? [String: Any])
        XCTAssertEqual(cover["mime_type"] as? String, "image/png")
        XCTAssertEqual(cover["image_type"] as? String, "front-cover")
        XCTAssertEqual(cover["bytes"] as? Int, 3032)
        let event = try XCTUnwrap(child.jsonLines.first { $0["event"] as? String == "tags" }, child.stdout)
        XCTAssertEqual(event["title"] as? String, "Test Tone")
        XCTAssertNotNil(event["load_id"], "the tags belong to a load")
    }

    func testTextModeSaysNowPlayingArtistAndTitle() throws {
        let result = try GstplayProcess.run([GstplayProcess.fixture("tagged.ogg")])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stderr.contains("Now playing gstplay Fixtures – Ogg Tone"), result.stderr)
    }

    func testTheStatusLineShowsArtistAndTitleElseTheQueueItemsTitle() {
        var model = StatusLine()
        model.snapshot.state = .playing
        model.snapshot.features[QueueSnapshot.self] = QueueSnapshot(items: [QueueItem(uri: "file:///a.mp3", title: "From the playlist")], currentIndex: 0)
        XCTAssertTrue(model.render(columns: 120).contains("From the playlist"), model.render(columns: 120))
        model.snapshot.features[TagsSection.self] = TagsSection(tags: MediaTags(title: "Test Tone", artist: "gstplay Fixtures"))
        let line = model.render(columns: 120)
        XCTAssertTrue(line.contains("gstplay Fixtures – Test Tone"), line)
        XCTAssertFalse(line.contains("From the playlist"), "the media's own tags win")
        XCTAssertLessThan(model.render(columns: 30).count, 30, "still fits a narrow terminal")
    }

    func testCoverWritesTheEmbeddedPictureAsPNGOrJPEG() throws {
        try FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)
        let png = scratch + "/cover.png", jpeg = scratch + "/cover.jpg"
        let written = try GstplayProcess.run(["cover", GstplayProcess.fixture("tagged-cover.mp3"), "-o", png])
        XCTAssertEqual(written.status, 0, written.stderr)
        XCTAssertEqual(written.stdout, "\(png) (128x128)\n")
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: png)), try Data(contentsOf: URL(fileURLWithPath: TestMedia.coverArt)),
                       "a PNG picture is written as embedded")
        XCTAssertEqual(try GstplayProcess.run(["cover", GstplayProcess.fixture("tagged-cover.mp3"), "-o", jpeg]).status, 0)
        XCTAssertEqual(Array(try Data(contentsOf: URL(fileURLWithPath: jpeg)).prefix(3)), [0xFF, 0xD8, 0xFF])
    }

    func testConsoleCoverWritesThePlayingMediasPicture() throws {
        try FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)
        let target = scratch + "/console.png"
        let child = try GstplayProcess(["--json", "--keep-open", GstplayProcess.fixture("tagged-cover.mp3")]).started()
        XCTAssertNotNil(child.waitForJSON { $0["event"] as? String == "tags" }, child.stdout)
        child.send(#"{"command":["cover",""# + target + #""],"request_id":1}"#)
        let reply = try XCTUnwrap(child.waitForJSON { $0["request_id"] as? Int == 1 }, child.stdout)
        XCTAssertEqual(reply["error"] as? String, "success")
        XCTAssertEqual((reply["data"] as? [String: Any])?["width"] as? Int, 128)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: target)), try Data(contentsOf: URL(fileURLWithPath: TestMedia.coverArt)))
        child.send("quit")
        XCTAssertEqual(child.waitForExit(), 0)

        let noArt = try GstplayProcess(["--json", "--keep-open", GstplayProcess.fixture("tagged.ogg")]).started()
        XCTAssertNotNil(noArt.waitForJSON { $0["event"] as? String == "media-info" }, noArt.stdout)
        noArt.send(#"{"command":"cover","request_id":2}"#)
        let refused = try XCTUnwrap(noArt.waitForJSON { $0["request_id"] as? Int == 2 }, noArt.stdout)
        XCTAssertEqual(refused["error"] as? String, "cover: \(GstplayProcess.fixture("tagged.ogg")) has no cover art")
        noArt.send("quit")
        XCTAssertEqual(noArt.waitForExit(), 0)
    }

    func testVisualizationOptionTakesAutoNoneOrAnInstalledVisualiser() throws {
        for good in ["auto", "none", "goom"] {
            XCTAssertEqual(try GstplayCommand.parse(["--visualization", good, "a.mp3"]).makeOptions().visualization,
                           AudioVisualization(argument: good))
        }
        XCTAssertEqual(try GstplayCommand.parse(["a.mp3"]).makeOptions().visualization, .auto)
        XCTAssertEqual(try GstplayCommand.parse(["--json", "a.mp3"]).makeOptions().standardFeatures().visualization, .none, "never with --json")
        let bad = try GstplayProcess.run(["--visualization", "pngenc", GstplayProcess.fixture("tagged.ogg")])
        XCTAssertEqual(bad.status, 2)
        XCTAssertTrue(bad.stderr.contains("'pngenc' is not an installed GStreamer visualiser"), bad.stderr)
    }
}

/// `gstplay cover` and the console's `cover` on bad input (the CLI's bad-input corpus):
/// the documented exit code, one clear line naming the input, no crash, no hang.
final class CoverCorpusTests: XCTestCase, CLICorpus {
    func testCoverOnBadInput() throws {
        let out = NSTemporaryDirectory() + "/cover-corpus-\(getpid()).png"
        let fixtures = TestMedia.root.appendingPathComponent("Fixtures").path
        let cases: [(name: String, input: String, exit: Int32, text: String)] = [
            ("no cover art", GstplayProcess.fixture("tagged.ogg"), 3, "the media has no cover art"),
            ("a video without art", GstplayProcess.fixture("h264-aac-10s.mp4"), 3, "the media has no cover art"),
            ("missing file", fixtures + "/missing.mp3", 1, "Resource not found"),
            ("a directory", fixtures, 1, "is a directory"),
            ("garbage", GstplayProcess.fixture("garbage.bin"), 1, "Could not determine type of stream"),
            ("refused http", "http://127.0.0.1:1/x.mp3", 1, "error"),
        ]
        for entry in cases {
            let outcome = try run("cover: \(entry.name)", ["cover", entry.input, "-o", out])
            assertOneItemError(outcome, exit: entry.exit, input: entry.input, [entry.text])
            XCTAssertFalse(FileManager.default.fileExists(atPath: out), "\(entry.name): nothing written")
        }
        let intoDirectory = try run("cover: -o a directory", ["cover", GstplayProcess.fixture("tagged-cover.mp3"), "-o", NSTemporaryDirectory()])
        assertSane(intoDirectory)
        XCTAssertEqual(intoDirectory.status, 1)
        XCTAssertEqual(intoDirectory.errorLines.count, 1, intoDirectory.stderr)
        let usage = try run("cover: no -o", ["cover", GstplayProcess.fixture("tagged-cover.mp3")])
        assertSane(usage)
        XCTAssertEqual(usage.status, 2)
    }

    func testConsoleCoverWithoutArtIsOneError() throws {
        let outcome = try console("console cover without art", send: [Data("cover\n".utf8)]) { _, err in self.errorLine(err) }
        assertOneConsoleError(outcome, "cover: \(GstplayProcess.fixture("vp8-opus-4s.webm")) has no cover art")
    }
}
