import Foundation
import TestSupport
import XCTest
@testable import gstplay

/// mpv's habits on the command line: `--sub-auto`, `--autoload-files`, `--screenshot-template`
/// and `--screenshot-directory`, each through the built binary on copies of real fixtures.
final class MpvHabitsCLITests: XCTestCase {
    private var directory = ""

    override func setUpWithError() throws {
        directory = NSTemporaryDirectory() + "gstplay-mpvhabits-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    }

    override func tearDown() {
        try? FileManager.default.removeItem(atPath: directory)
    }

    private func copy(_ fixture: String, as name: String) throws -> String {
        let path = directory + "/" + name
        try FileManager.default.copyItem(atPath: GstplayProcess.fixture(fixture), toPath: path)
        return path
    }

    private func events(_ stdout: String, _ name: String) -> [[String: Any]] {
        stdout.split(separator: "\n").compactMap { jsonObject(String($0)) }.filter { $0["event"] as? String == name }
    }

    func testSubtitleNamedLikeTheItemLoadsAsItsExternalTrack() throws {
        let movie = try copy("tracks.mkv", as: "movie.mkv")
        _ = try copy("tracks-external.srt", as: "movie.en.srt")
        _ = try copy("subtitles.srt", as: "other.srt")
        let run = try GstplayProcess.run(["--json", movie])
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(events(run.stdout, "subtitle").map { $0["text"] as? String }, ["External one", "External two", "External three"])
        let tracks = try XCTUnwrap(events(run.stdout, "tracks").last?["tracks"] as? [[String: Any]])
        XCTAssertEqual(tracks.filter { $0["external"] as? Bool == true }.count, 1, "\(tracks)")

        // fuzzy: any subtitle name containing the stem (exact ones would still come first).
        let film = try copy("tracks.mkv", as: "film.mkv")
        _ = try copy("tracks-external.srt", as: "Film-commentary.srt")
        let fuzzy = try GstplayProcess.run(["--json", "--sub-auto=fuzzy", film])
        XCTAssertEqual(fuzzy.status, 0, fuzzy.stderr)
        XCTAssertEqual(events(fuzzy.stdout, "subtitle").map { $0["text"] as? String }, ["External one", "External two", "External three"])
        let exact = try GstplayProcess.run(["--json", film])
        XCTAssertEqual(events(exact.stdout, "subtitle").map { $0["text"] as? String }, ["Hello", "Goodbye"], "exact: not by name")

        let off = try GstplayProcess.run(["--json", "--sub-auto=no", movie])
        XCTAssertEqual(off.status, 0, off.stderr)
        XCTAssertEqual(events(off.stdout, "subtitle").map { $0["text"] as? String }, ["Hello", "Goodbye"], "the embedded track only")
        let offTracks = try XCTUnwrap(events(off.stdout, "tracks").last?["tracks"] as? [[String: Any]])
        XCTAssertEqual(offTracks.filter { $0["external"] as? Bool == true }.count, 0)

        let bad = try GstplayProcess.run(["--sub-auto=maybe", movie])
        XCTAssertEqual(bad.status, 2)
        XCTAssertTrue(bad.stderr.hasPrefix("gstplay: error: --sub-auto must be no, exact or fuzzy (got 'maybe')"), bad.stderr)
    }

    /// An mpv client library (python-mpv-jsonipc, `make test-venv`) sees the found file in
    /// `track-list` as mpv shows an auto-loaded subtitle: `external`, selected as `sid`.
    func testAnMpvClientSeesTheFoundSubtitleAsTheSelectedExternalTrack() throws {
        VenvScript.assertInstalled()
        let movie = try copy("h264-aac-10s.mp4", as: "movie.mp4")
        _ = try copy("tracks-external.srt", as: "movie.srt")
        let socket = ControlSocketTests.socketPath()
        let child = try GstplayProcess(["--json", "--input-ipc-server", socket, movie]).started()
        XCTAssertTrue(child.waitForLine(containing: #""to":"playing""#), child.stdout)
        let client = VenvScript.run("mpv_sub_auto_client.py", [socket])
        XCTAssertEqual(client.status, 0, client.transcript)
        let result = try XCTUnwrap(client.lastObject, client.transcript)
        let subs = try XCTUnwrap(result["subs"] as? [[String: Any]], "\(result)")
        XCTAssertEqual(subs.count, 1, "\(subs)")
        XCTAssertEqual(subs.first?["external"] as? Bool, true)
        XCTAssertEqual(subs.first?["codec"] as? String, "SubRip")
        XCTAssertEqual(result["sid"] as? Int, subs.first?["id"] as? Int, "the found file is the selected subtitle")
        child.send("quit")
        XCTAssertEqual(child.waitForExit(), 0, child.stderr)
    }

    func testAutoloadFilesQueuesTheFolderFromTheGivenFileOn() throws {
        for name in ["a.mp4", "b.mp4", "c.mp4"] { _ = try copy("short-0.2s.mp4", as: name) }
        _ = try copy("subtitles.srt", as: "notes.srt")
        FileManager.default.createFile(atPath: directory + "/readme.txt", contents: Data("x".utf8))
        let run = try GstplayProcess.run(["--json", "--no-video", "--autoload-files", directory + "/b.mp4"])
        XCTAssertEqual(run.status, 0, run.stderr)
        let played = events(run.stdout, "uri").compactMap { ($0["uri"] as? String)?.split(separator: "/").last.map(String.init) }
        XCTAssertEqual(played, ["b.mp4", "c.mp4", "a.mp4"], "from the given file on, then the ones before it")

        let alone = try GstplayProcess.run(["--json", "--no-video", directory + "/b.mp4"])
        XCTAssertEqual(events(alone.stdout, "uri").count, 1, "without the option only the file plays")
        let two = try GstplayProcess.run(["--json", "--no-video", "--autoload-files", directory + "/b.mp4", directory + "/a.mp4"])
        XCTAssertEqual(events(two.stdout, "uri").count, 2, "two files given: no autoload")
    }

    func testScreenshotTemplateAndDirectoryNameTheSnapshot() throws {
        let shots = directory + "/shots/new"
        let child = GstplayProcess(["--json", "--keep-open", "--screenshot-directory", shots,
                                    "--screenshot-template", "%F-%n-%P", GstplayProcess.fixture("par-64-45.mkv")])
        try child.start()
        XCTAssertTrue(child.waitForLine(containing: #""to":"playing""#), child.stdout)
        child.send(#"{"command":"pause","request_id":1}"#)
        XCTAssertTrue(child.waitForLine(containing: #""to":"paused""#), child.stdout)
        child.send(#"{"command":"snapshot","request_id":2}"#)
        child.send(#"{"command":"snapshot","request_id":3}"#)
        child.send(#"{"command":"quit","request_id":4}"#)
        XCTAssertEqual(child.waitForExit(), 0, child.stderr)
        let replies = child.stdoutLines.compactMap(jsonObject).filter { $0["request_id"] != nil }
        func path(_ id: Int) -> String? { (replies.first { $0["request_id"] as? Int == id }?["data"] as? [String: Any])?["path"] as? String }
        let first = try XCTUnwrap(path(2), "\(replies)")
        let second = try XCTUnwrap(path(3), "\(replies)")
        XCTAssertTrue(first.hasPrefix(shots + "/par-64-45-0001-00:00:0"), first)
        XCTAssertTrue(second.hasPrefix(shots + "/par-64-45-0002-00:00:0"), "the next free number: \(second)")
        XCTAssertTrue(first.range(of: #"-\d\d:\d\d:\d\d\.\d\d\d\.png$"#, options: .regularExpression) != nil, first)
        XCTAssertTrue(FileManager.default.fileExists(atPath: first))
        XCTAssertTrue(FileManager.default.fileExists(atPath: second))
    }
}
