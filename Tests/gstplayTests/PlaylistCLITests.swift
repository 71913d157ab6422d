import Foundation
import TestSupport
import XCTest

/// Playlist files on the gstplay command line, through the binary.
final class PlaylistCLITests: XCTestCase {
    private var dir = ""

    override func setUpWithError() throws {
        dir = NSTemporaryDirectory() + "gstplay-playlist-cli-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(atPath: dir) }

    private func write(_ name: String, _ text: String) -> String {
        let path = dir + "/" + name
        FileManager.default.createFile(atPath: path, contents: Data(text.utf8))
        return path
    }

    func testM3UWithRelativeEntriesAMissingFileAndItselfPlaysTheOthers() throws {
        let fixtures = GstplayProcess.fixture("") + "/"
        let list = write("list.m3u8", """
        #EXTM3U
        #EXTINF:1,First
        \(relative(from: dir, to: fixtures + "gapless-440.ogg"))
        missing.ogg
        list.m3u8
        \(fixtures)gapless-880.ogg
        """)
        let result = try GstplayProcess.run(["--quiet", "--no-video", list], input: [])
        XCTAssertEqual(result.status, 1, result.stderr)
        let lines = result.stderr.split(separator: "\n").map(String.init)
        XCTAssertTrue(lines.contains("gstplay: warning: playlist '\(dir)/list.m3u8' includes itself: not expanded again"), result.stderr)
        XCTAssertEqual(lines.filter { $0.contains("error") }.count, 1, result.stderr)
        XCTAssertTrue(lines.contains { $0.hasPrefix("gstplay: error: file://\(dir)/missing.ogg: ") }, result.stderr)
    }

    func testPlaylistEntriesPlayInOrderInJSON() throws {
        let fixtures = GstplayProcess.fixture("") + "/"
        let list = write("two.pls", "[playlist]\nFile1=\(fixtures)gapless-440.ogg\nFile2=\(fixtures)gapless-660.ogg\nNumberOfEntries=2\n")
        let result = try GstplayProcess.run(["--json", list], input: [])
        XCTAssertEqual(result.status, 0, result.stderr)
        let uris = result.stdout.split(separator: "\n").compactMap { jsonObject(String($0)) }
            .filter { $0["event"] as? String == "uri" }.compactMap { $0["uri"] as? String }
        XCTAssertEqual(uris, ["file://\(fixtures)gapless-440.ogg", "file://\(fixtures)gapless-660.ogg"])
    }

    func testBinaryAndEmptyPlaylistsAreOneClearLineAndExitOne() throws {
        let binary = dir + "/garbage.m3u"
        FileManager.default.createFile(atPath: binary, contents: Data([0, 1, 2, 0xFF, 0x41]))
        var result = try GstplayProcess.run([binary], input: [])
        XCTAssertEqual(result.status, 1)
        XCTAssertEqual(result.stderr, "gstplay: error: playlist '\(binary)': not a playlist (binary data)\n")
        let empty = write("empty.m3u", "#EXTM3U\n")
        result = try GstplayProcess.run([empty], input: [])
        XCTAssertEqual(result.status, 1)
        XCTAssertEqual(result.stderr, "gstplay: error: playlist '\(empty)': the playlist has no entries\n")
    }

    func testHLSPlaylistIsPassedOnAsAStream() throws {
        let hls = write("index.m3u8", "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:2\n#EXTINF:2.0,\nnone.ts\n#EXT-X-ENDLIST\n")
        let result = try GstplayProcess.run(["--json", hls], input: [])
        let uris = result.stdout.split(separator: "\n").compactMap { jsonObject(String($0)) }
            .filter { $0["event"] as? String == "uri" }.compactMap { $0["uri"] as? String }
        XCTAssertEqual(uris, ["file://\(hls)"], "the m3u8 itself goes to GStreamer")
    }

    private func relative(from base: String, to target: String) -> String {
        let baseParts = base.split(separator: "/"), targetParts = target.split(separator: "/")
        var common = 0
        while common < min(baseParts.count, targetParts.count) && baseParts[common] == targetParts[common] { common += 1 }
        return (Array(repeating: "..", count: baseParts.count - common) + targetParts[common...].map(String.init)).joined(separator: "/")
    }
}
