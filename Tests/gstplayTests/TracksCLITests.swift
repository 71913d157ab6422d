import Backend
import Foundation
import TestSupport
import XCTest
@testable import BackendControl
@testable import gstplay

/// Tracks on the command line: the options, `--list-tracks`, the console and JSON
/// commands and events, on `tracks.mkv` with the built binary (real pipelines, fake sinks).
final class TracksCLITests: XCTestCase {
    private let tracks = GstplayProcess.fixture("tracks.mkv")
    private let external = GstplayProcess.fixture("tracks-external.srt")

    private func events(_ stdout: String, _ name: String) -> [[String: Any]] {
        GstplayProcess.completeLines(stdout).compactMap(jsonObject).filter { $0["event"] as? String == name }
    }

    func testListTracksPrintsEveryStreamWithCodecAndLanguageAndExits0() throws {
        let run = try GstplayProcess.run(["--list-tracks", tracks])
        XCTAssertEqual(run.status, 0, run.stderr)
        let lines = GstplayProcess.completeLines(run.stdout)
        XCTAssertEqual(lines, [
            "\(tracks): Matroska 0:00:04",
            "* video 0: On2 VP8, 160x120 30 fps [default]",
            "* audio 0: Vorbis, en (English), \"English-stereo\", 2 ch, 48000 Hz, 80 kb/s [default]",
            "  audio 1: Vorbis, de (German), \"Deutsch-mono\", 1 ch, 48000 Hz, 60 kb/s [default]",
            "* subtitle 0: Timed Text, en (English), \"English\" [default]",
            "  subtitle 1: Timed Text, de (German), \"Deutsch-forced\" [default]",
        ])
    }

    func testListTracksJSONAndABadItem() throws {
        let run = try GstplayProcess.run(["--list-tracks", "--json", tracks, GstplayProcess.fixture("garbage.bin")])
        XCTAssertEqual(run.status, 1, "an item that cannot be read")
        let listed = events(run.stdout, "tracks")
        XCTAssertEqual(listed.count, 1)
        let streams = try XCTUnwrap(listed.first?["tracks"] as? [[String: Any]])
        XCTAssertEqual(streams.map { $0["type"] as? String }, ["video", "audio", "audio", "subtitle", "subtitle"])
        XCTAssertEqual(streams.map { $0["language"] as? String }, [nil, "en", "de", "en", "de"])
        XCTAssertEqual(streams[2]["channels"] as? Int, 1)
        XCTAssertTrue(run.stderr.contains("gstplay: error: \(GstplayProcess.fixture("garbage.bin")): Could not determine type of stream."), run.stderr)
    }

    func testBadTrackOptionsAreUsageErrors() throws {
        for arguments in [["--sub-track", "two"], ["--audio-track", "-1"], ["--sub-offset", "abc"], ["--sub-offset", "99999999"]] {
            let run = try GstplayProcess.run(arguments + [tracks])
            XCTAssertEqual(run.status, 2, "\(arguments): \(run.stderr)")
        }
    }

    /// JSON session: startup options, cues with the offset, switching, and every bad input.
    func testJSONTracksCommandsEventsAndBadInput() throws {
        let child = GstplayProcess(["--json", "--audio-track", "1", "--sub-offset", "500", tracks])
        try child.start()
        XCTAssertTrue(child.waitForLine(containing: #""event":"subtitle""#), child.stdout)
        child.send(#"{"command":"tracks","request_id":1}"#)
        child.send(#"{"command":["track","audio","5"],"request_id":2}"#)
        child.send(#"{"command":["track","video","none"],"request_id":3}"#)
        child.send(#"{"command":["sub-file","/nonexistent/x.srt"],"request_id":4}"#)
        child.send(#"{"command":["track","subtitle","1"],"request_id":5}"#)
        child.send(#"{"command":["track","bogus","1"],"request_id":6}"#)
        XCTAssertEqual(child.waitForExit(), 0, child.stderr)
        let lines = GstplayProcess.completeLines(child.stdout).compactMap(jsonObject)
        func reply(_ id: Int) -> [String: Any]? { lines.first { $0["request_id"] as? Int == id } }

        let selected = events(child.stdout, "track-selected").map { "\($0["type"]!) \($0["index"] ?? "nil")" }
        XCTAssertEqual(selected.first, "audio 1", "--audio-track 1 applied when the tracks were known")
        let list = try XCTUnwrap(reply(1)?["data"] as? [String: Any])
        XCTAssertEqual((list["selected"] as? [String: Any])?["audio"] as? Int, 1)
        XCTAssertEqual((list["tracks"] as? [Any])?.count, 5)
        XCTAssertEqual(reply(2)?["error"] as? String, "track: no audio track 5: the media has 2 (0…1)")
        XCTAssertEqual(reply(3)?["error"] as? String, "track: video tracks cannot be switched off; choose a track number")
        XCTAssertEqual(reply(4)?["error"] as? String, "sub-file: cannot read subtitle file /nonexistent/x.srt: No such file or directory")
        XCTAssertEqual(reply(5)?["error"] as? String, "success")
        XCTAssertEqual(reply(6)?["error"] as? String, "track: unknown track type 'bogus' (expected audio, subtitle or video)")

        let cues = events(child.stdout, "subtitle")
        XCTAssertEqual(cues.first?["text"] as? String, "Hello")
        XCTAssertEqual(cues.first?["start"] as? Double ?? -1, 1.0, accuracy: 0.034, "0.5 s + sub-offset 500")
        XCTAssertEqual(cues.first?["end"] as? Double ?? -1, 2.0, accuracy: 0.034)
        XCTAssertEqual(cues.last?["text"] as? String, "Auf Wiedersehen", "the German track after 'track subtitle 1'")
        XCTAssertEqual(events(child.stdout, "eos").count, 1, "playback went on to the end")
    }

    func testSubFileOptionAndTrackSubtitleOnAFileWithoutSubtitles() throws {
        let run = try GstplayProcess.run(["--json", "--sub-file", external, tracks])
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(events(run.stdout, "subtitle").map { $0["text"] as? String }, ["External one", "External two", "External three"])
        let last = try XCTUnwrap(events(run.stdout, "tracks").last?["tracks"] as? [[String: Any]])
        XCTAssertEqual(last.filter { $0["external"] as? Bool == true }.count, 1)

        let plain = GstplayProcess([GstplayProcess.fixture("vp8-opus-4s.webm")])
        try plain.start()
        // `tracks` answers "no streams known yet" until the preroll published them: ask until it lists them.
        var listed = false
        for _ in 0..<30 where !listed {
            plain.send("tracks")
            listed = plain.waitFor(timeout: 0.2) { stdout, _ in stdout.contains("* audio 0: Opus") }
        }
        XCTAssertTrue(listed, plain.stderr)
        plain.send("track subtitle 3")
        XCTAssertEqual(plain.waitForExit(), 0, plain.stderr)
        XCTAssertTrue(plain.stderr.contains("error: track: no subtitle track 3: the media has no subtitle tracks"), plain.stderr)
        XCTAssertTrue(plain.stdout.contains("* audio 0: Opus"), plain.stdout)
    }

    func testUnusableSubtitleFilesWarnAndPlaybackGoesOn() throws {
        for name in ["binary.srt", "broken-timestamps.srt"] {
            let run = try GstplayProcess.run(["--sub-file", GstplayProcess.fixture(name), tracks])
            XCTAssertEqual(run.status, 0, "\(name): \(run.stderr)")
            XCTAssertTrue(run.stderr.contains("gave no subtitle stream (unknown format or broken file); playing on without it"), run.stderr)
        }
    }

    func testParsingKeysAndCycling() {
        XCTAssertEqual(ConsoleCommand.parse("track audio 1"), .success(.track(.audio, 1)))
        XCTAssertEqual(ConsoleCommand.parse("TRACK Subtitle none"), .success(.track(.subtitle, nil)))
        XCTAssertEqual(ConsoleCommand.parse("sub-offset -250"), .success(.subOffset(-250)))
        XCTAssertEqual(ConsoleCommand.parse("audio-offset 100"), .success(.audioOffset(100)))
        XCTAssertEqual(ConsoleCommand.parse("sub-file /a b.srt"), .success(.subFile("/a b.srt")))
        XCTAssertEqual(ConsoleCommand.parse("track audio"), .failure(ConsoleError("track: expected 'track audio|subtitle|video <N|none>'")))
        XCTAssertEqual(ConsoleCommand.parse("sub-offset x"), .failure(ConsoleError("sub-offset: expected milliseconds within ±3600000, got 'x'")))
        XCTAssertEqual(bound(.character("a")), .cycle(.audio))
        XCTAssertEqual(bound(.character("s")), .cycle(.sub))
        XCTAssertEqual(bound(.character("j")), .cycle(.sub))
        XCTAssertEqual(bound(.character("J")), .cycle(.sub))
        XCTAssertEqual(bound(.character("V")), .cycle(.video))
        XCTAssertEqual(bound(.character("v")), .cycle(.subVisibility))   // mpv's v
        XCTAssertEqual(bound(.character("o")), .osd(nil))
        let list = [MediaTrack(index: 0, kind: .audio), MediaTrack(index: 1, kind: .audio),
                    MediaTrack(index: 0, kind: .subtitle), MediaTrack(index: 1, kind: .subtitle)]
        XCTAssertEqual(try TrackCommands.next(.audio, tracks: list, selection: TrackSelection(audio: 1)).get(), 0)
        XCTAssertEqual(try TrackCommands.next(.subtitle, tracks: list, selection: TrackSelection(subtitle: 0)).get(), 1)
        XCTAssertNil(try TrackCommands.next(.subtitle, tracks: list, selection: TrackSelection(subtitle: 1)).get(), "off after the last")
        XCTAssertEqual(try TrackCommands.next(.subtitle, tracks: list, selection: TrackSelection()).get(), 0)
        XCTAssertThrowsError(try TrackCommands.next(.video, tracks: list, selection: TrackSelection()).get())
    }

    func testNowPlayingShowsArtistAndTitleFromTheTags() throws {
        let out = Pipe(), err = Pipe()
        let output = Output(stdout: out.fileHandleForWriting.fileDescriptor, stderr: err.fileHandleForWriting.fileDescriptor)
        let reporter = EventReporter(output: output, mode: .text(statusLine: false), quiet: false)
        var info = MediaInfo(uri: "file:///x.ogg", isLive: false, isSeekable: true, duration: nil, hasVideo: false, hasAudio: true, subtitleStreams: 0)
        reporter.report(.mediaInfo(info), item: nil)
        info.tags = MediaTags(title: "Song", artist: "Band")
        reporter.report(.mediaInfo(info), item: nil)
        try err.fileHandleForWriting.close()
        let text = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        XCTAssertEqual(text, "Now playing Band – Song\n")
    }
}
