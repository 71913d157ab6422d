@testable import BackendCore
@testable import BackendQueue
import Backend
import Foundation
import XCTest

/// ``PlaylistFile`` on real files in a temporary directory.
final class PlaylistFileTests: XCTestCase {
    private var dir = ""

    override func setUpWithError() throws {
        dir = NSTemporaryDirectory() + "gstplay-playlist-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir + "/sub", withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(atPath: dir) }

    private func write(_ name: String, _ text: String) -> String {
        let path = dir + "/" + name
        FileManager.default.createFile(atPath: path, contents: Data(text.utf8))
        return path
    }

    private func items(_ contents: PlaylistFile.Contents) -> [QueueItem] {
        if case .items(let items, _) = contents { return items }
        XCTFail("expected items, got \(contents)")
        return []
    }

    func testExtendedM3UWithTitlesRelativeAbsoluteAndURIs() throws {
        let path = write("list.m3u8", """
        \u{FEFF}#EXTM3U
        #EXTINF:123,Artist – Song
        a.ogg
        # a comment

        sub/b with space.ogg
        /abs/c.ogg
        #EXTINF:-1,Radio
        http://127.0.0.1:8000/stream
        """)
        let list = items(try PlaylistFile.load(path))
        XCTAssertEqual(list, [
            QueueItem(uri: "file://\(dir)/a.ogg", title: "Artist – Song", duration: MediaTime(seconds: 123)),   // the #EXTINF length
            QueueItem(uri: "file://\(dir)/sub/b%20with%20space.ogg"),
            QueueItem(uri: "file:///abs/c.ogg"),
            QueueItem(uri: "http://127.0.0.1:8000/stream", title: "Radio"),
        ])
    }

    func testRelativeEntriesResolveAgainstThePlaylistDirectoryNotTheWorkingDirectory() throws {
        let path = write("sub/inner.m3u", "../x.ogg\n./y.ogg\n")
        let list = items(try PlaylistFile.load(path))
        XCTAssertEqual(list.map(\.uri), ["file://\(dir)/x.ogg", "file://\(dir)/sub/y.ogg"])
    }

    func testPLSOrderedByNumberWithTitles() throws {
        let path = write("list.pls", """
        [playlist]
        File2=two.ogg
        Title2=Second
        File1=http://127.0.0.1/one
        Title1=First
        NumberOfEntries=2
        Version=2
        """)
        XCTAssertEqual(items(try PlaylistFile.load(path)), [
            QueueItem(uri: "http://127.0.0.1/one", title: "First"),
            QueueItem(uri: "file://\(dir)/two.ogg", title: "Second"),
        ])
    }

    func testHLSPlaylistIsAStreamNotAList() throws {
        let path = write("index.m3u8", "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:2\n#EXTINF:2.0,\nseg0.ts\n#EXT-X-ENDLIST\n")
        XCTAssertEqual(try PlaylistFile.load(path), .stream("file://\(path)"))
    }

    func testSelfInclusionDoesNotLoop() throws {
        let path = write("self.m3u", "a.ogg\nself.m3u\nother.m3u\n")
        _ = write("other.m3u", "b.ogg\nself.m3u\n")
        guard case .items(let list, let warnings) = try PlaylistFile.load(path) else { return XCTFail() }
        XCTAssertEqual(list.map(\.uri), ["file://\(dir)/a.ogg", "file://\(dir)/b.ogg"])
        XCTAssertEqual(warnings.count, 2, "\(warnings)")
        XCTAssertTrue(warnings.allSatisfy { $0.contains("includes itself") })
    }

    func testBinaryEmptyMissingAndHeaderlessFilesFailWithOneClearLine() throws {
        let binary = dir + "/garbage.m3u"
        FileManager.default.createFile(atPath: binary, contents: Data([0x00, 0xFF, 0x10, 0x41, 0x0A]))
        XCTAssertThrowsError(try PlaylistFile.load(binary)) {
            XCTAssertEqual(String(describing: $0), "playlist '\(binary)': not a playlist (binary data)")
        }
        let empty = write("empty.m3u", "#EXTM3U\n# nothing\n")
        XCTAssertThrowsError(try PlaylistFile.load(empty)) {
            XCTAssertEqual(String(describing: $0), "playlist '\(empty)': the playlist has no entries")
        }
        XCTAssertThrowsError(try PlaylistFile.load(dir + "/missing.m3u")) {
            XCTAssertTrue(String(describing: $0).contains("No such file or directory"), "\($0)")
        }
        let pls = write("bad.pls", "File1=a.ogg\n")
        XCTAssertThrowsError(try PlaylistFile.load(pls)) {
            XCTAssertTrue(String(describing: $0).contains("no [playlist] section"))
        }
    }

    /// `File-5=` and `File+5=` are not entries (PLS numbers are digits from 1); an escape
    /// sequence in one title does not make the whole file binary.
    func testPLSNumbersAreDigitsAndAnEscapeInATitleIsNotBinary() throws {
        let path = write("signs.pls", "[playlist]\nFile1=one.ogg\nTitle1=\u{1B}[31mRed\u{1B}[0m\nFile-5=minus.ogg\nFile+6=plus.ogg\n"
                         + "File 7=space.ogg\nFile0=zero.ogg\nFile2=two.ogg\n")
        let list = items(try PlaylistFile.load(path))
        XCTAssertEqual(list.map(\.uri), ["file://\(dir)/one.ogg", "file://\(dir)/two.ogg"])
        XCTAssertEqual(list.first?.title, "[31mRed [0m", "control characters in titles read as spaces, as they are saved")
        XCTAssertFalse(PlaylistFile.looksBinary(Array("#EXTINF:1,\u{1B}[2J title\na.ogg\n".utf8)))
        XCTAssertTrue(PlaylistFile.looksBinary([0x41, 0x00, 0x41]))
        XCTAssertTrue(PlaylistFile.looksBinary(Array(repeating: 0x07, count: 10) + Array(repeating: 0x41, count: 20)))
    }

    func testLatin1M3UIsDecoded() throws {
        let path = dir + "/latin.m3u"
        FileManager.default.createFile(atPath: path, contents: Data("#EXTINF:1,Caf".utf8 + [0xE9] + Array("\nc.ogg\n".utf8)))
        XCTAssertEqual(items(try PlaylistFile.load(path)).first?.title, "Café")
    }

    func testSaveRoundTripsTitlesAndLocations() throws {
        let original = [
            QueueItem(uri: "file://\(dir)/a%20b.ogg", title: "A\nB"),
            QueueItem(uri: "http://127.0.0.1/s"),
        ]
        let path = dir + "/saved.m3u"
        try PlaylistFile.saveM3U(original, to: path)
        let text = try String(contentsOfFile: path, encoding: .utf8)
        XCTAssertEqual(text, "#EXTM3U\n#EXTINF:-1,A B\n\(dir)/a b.ogg\nhttp://127.0.0.1/s\n")
        XCTAssertEqual(items(try PlaylistFile.load(path)), [QueueItem(uri: original[0].uri, title: "A B"), original[1]])
        XCTAssertThrowsError(try PlaylistFile.saveM3U(original, to: dir + "/no/such/dir/x.m3u"))
    }

    func testIsPlaylistByExtension() {
        XCTAssertTrue(PlaylistFile.isPlaylist("x.M3U"))
        XCTAssertTrue(PlaylistFile.isPlaylist("/a/b.pls"))
        XCTAssertTrue(PlaylistFile.isPlaylist("file:///a/b.m3u8"))
        XCTAssertFalse(PlaylistFile.isPlaylist("http://h/live.m3u8"), "remote playlists go to GStreamer")
        XCTAssertFalse(PlaylistFile.isPlaylist("a.ogg"))
    }

    /// `file://` URIs are decoded by GLib (`g_filename_from_uri`), not by hand.
    func testFileURIPathsAreDecodedByGLib() {
        XCTAssertEqual(PlaylistFile.fileURIPath("file:///music/a%20b%23c.ogg"), "/music/a b#c.ogg")
        XCTAssertEqual(PlaylistFile.fileURIPath("file://localhost/music/x.ogg"), "/music/x.ogg")
        XCTAssertEqual(PlaylistFile.fileURIPath("file:///music/a#b.mp3"), "/music/a#b.mp3", "a raw # is part of the name")
        XCTAssertEqual(PlaylistFile.fileURIPath("file:///caf%C3%A9.ogg"), "/café.ogg")
        XCTAssertNil(PlaylistFile.fileURIPath("file://elsewhere/music/x.ogg"), "another host's file is not a local path")
        XCTAssertNil(PlaylistFile.fileURIPath("file:///a%00b.ogg"), "a NUL cannot be in a path")
        XCTAssertNil(PlaylistFile.fileURIPath("http://host/x.ogg"))
        XCTAssertEqual(PlaylistFile.fileURIPath(PlaylistFile.fileURI("/tmp/a b%c#d.ogg")), "/tmp/a b%c#d.ogg", "round trip")
    }
}
