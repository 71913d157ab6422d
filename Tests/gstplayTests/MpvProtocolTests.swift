import Backend
import Foundation
import XCTest
@testable import BackendControl
@testable import gstplay

/// The mpv IPC subset as pure values: which lines are mpv's (and which stay gstplay's), the
/// properties read from a snapshot, and the reply and event lines, fixed by
/// Tests/gstplayTests/Golden/mpv.jsonl (`GSTPLAY_UPDATE_GOLDEN=1` rewrites it).
final class MpvProtocolTests: XCTestCase {
    private func command(_ line: String) -> MpvCommand? { try? MpvRequest.parse(line)?.command.get() }

    func testMpvLinesAreRecognisedAndGstplayLinesAreLeftAlone() {
        XCTAssertEqual(command(#"{"command": ["get_property", "time-pos"], "request_id": 1}"#), .getProperty("time-pos", asText: false))
        XCTAssertEqual(command(#"{"command": ["set_property", "pause", true]}"#), .setProperty("pause", .bool(true)))
        XCTAssertEqual(command(#"{"command": ["observe_property", 3, "volume"]}"#), .observe(id: 3, name: "volume", asText: false))
        XCTAssertEqual(command(#"{"command": ["seek", 10]}"#), .seek(10, .relative), "a number: mpv's relative seek")
        XCTAssertEqual(command(#"{"command": ["seek", "25", "absolute-percent"]}"#), .seek(25, .absolutePercent))
        XCTAssertEqual(command(#"{"command": ["seek", 5, "absolute+exact"]}"#), .seek(5, .absolute))
        XCTAssertEqual(command(#"{"command": ["loadfile", "a.mp4", "append"]}"#), .loadFile("a.mp4", .append))
        XCTAssertEqual(command(#"{"command": ["quit", 4]}"#), .quit(4))
        XCTAssertNil(MpvRequest.parse(#"{"command": ["seek", "+10"], "request_id": 1}"#), "a string target stays gstplay's seek")
        XCTAssertNil(MpvRequest.parse(#"{"command": "pause"}"#))
        XCTAssertNil(MpvRequest.parse(#"{"command": ["quit"]}"#), "a bare quit is gstplay's (the same thing)")
        XCTAssertNil(MpvRequest.parse("status"))
        XCTAssertNil(MpvRequest.parse("{oops"))
        XCTAssertEqual(MpvRequest.parse(#"{"command": ["get_property"], "request_id": 2}"#)?.command, .failure(MpvFailure("invalid parameter")))
        XCTAssertEqual(MpvRequest.parse(#"{"command": ["seek", 1, "sideways"]}"#)?.command, .failure(MpvFailure("invalid parameter")))
    }

    private func view(state: PlayerState = .playing, position: Double? = 2.5, paused: Bool = false) -> MpvView {
        var snapshot = PlayerSnapshot()
        snapshot.state = state
        snapshot.uri = "file:///media/My%20Clip.mp4"
        snapshot.position = position.map { MediaTime(seconds: $0) }
        snapshot.duration = MediaTime(seconds: 10)
        snapshot.volume = 0.125
        snapshot.pauseRequested = paused
        snapshot.features[QueueSnapshot.self] = GoldenSamples.queue
        var tracks = TracksSnapshot()
        tracks.tracks = [MediaTrack(index: 0, kind: .audio, codec: "Opus", languageCode: "en", isDefault: true, isExternal: false)]
        tracks.selection = TrackSelection(audio: 0)
        snapshot.features[TracksSnapshot.self] = tracks
        return MpvView(snapshot: snapshot, tags: MediaTags(title: "A title"), eofReached: false, names: [:])
    }

    private func value(_ name: String, _ view: MpvView) -> MpvValue? { try? MpvProperties.value(of: name, in: view).get() }

    func testPropertiesAreReadFromTheSnapshot() {
        let playing = view()
        XCTAssertEqual(value("time-pos", playing), .double(2.5))
        XCTAssertEqual(value("percent-pos", playing), .double(25))
        XCTAssertEqual(value("duration", playing), .double(10))
        XCTAssertEqual(value("volume", playing), .double(50), "the perceptual (cubic) scale, as mpv's")
        XCTAssertEqual(value("filename", playing), .string("My Clip.mp4"))
        XCTAssertEqual(value("media-title", playing), .string("A title"))
        XCTAssertEqual(value("aid", playing), .int(1), "mpv numbers tracks from 1")
        XCTAssertEqual(value("sid", playing), .bool(false))
        XCTAssertEqual(value("idle-active", playing), .bool(false))
        XCTAssertEqual(value("playlist-count", playing), .int(Int64(GoldenSamples.queue.items.count)))
        XCTAssertEqual(MpvProperties.value(of: "nonsense", in: playing), .failure(.notFound))
        XCTAssertEqual(MpvProperties.value(of: "chapter", in: playing), .failure(.unavailable))
        let idle = view(state: .idle, position: nil)
        XCTAssertEqual(MpvProperties.value(of: "time-pos", in: idle), .failure(.unavailable))
        XCTAssertEqual(value("idle-active", idle), .bool(true))
        XCTAssertEqual(MpvValue.double(50).text, "50.000000")
        XCTAssertEqual(MpvValue.double(-1.5).text, "-1.500000")
        XCTAssertEqual(MpvValue.bool(true).text, "yes")
    }

    /// mpv's event order for one file: start-file, file-loaded + playback-restart, seek,
    /// playback-restart, end-file (eof); a new load while one plays ends it with `stop`.
    func testTrackerMakesMpvEventsInOrder() {
        var tracker = MpvTracker()
        var names: [String] = []
        let info = MediaInfo(uri: "file:///a.mp4", isLive: false, isSeekable: true, duration: nil, hasVideo: true, hasAudio: true, subtitleStreams: 0)
        for event: PlayerEvent in [.uriLoaded("file:///a.mp4"), .mediaInfo(info), .stateChanged(from: .ready, to: .playing),
                                   .stateChanged(from: .playing, to: .seeking), .seekDone(.zero),
                                   .uriLoaded("file:///b.mp4"), .mediaInfo(info), .endOfStream(position: .zero), .endOfStream(position: .zero)] {
            names += tracker.lines(for: event, entryID: 1).map(\.name)
        }
        names += tracker.shutdownLines().map(\.name)
        XCTAssertEqual(names, ["start-file", "file-loaded", "playback-restart", "seek", "playback-restart",
                               "end-file", "start-file", "file-loaded", "playback-restart", "end-file", "shutdown"])
    }

    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Golden")

    /// One line per mpv reply and event shape, as mpv 0.35 writes them (keys sorted).
    static func goldenLines() -> [String] {
        [
            "reply-get " + WireMpv.Reply(id: .int(1), error: nil, data: .double(1.5)).line,
            "reply-no-id " + WireMpv.Reply(id: .absent, error: nil, data: .bool(false)).line,
            "reply-set " + WireMpv.Reply(id: .int(2), error: nil, data: nil).line,
            "reply-command " + WireMpv.Reply(id: .string("x"), error: nil, data: .null).line,
            "reply-error " + WireMpv.Reply(id: .int(3), error: MpvFailure.notFound.message, data: nil).line,
            "reply-playlist " + WireMpv.Reply(id: .int(4), error: nil, data: .array([.object(["filename": .string("a.mp4"), "id": .int(0),
                                                                                           "current": .bool(true), "playing": .bool(true)])])).line,
            "property-change " + WireMpv.propertyChange(id: 1, name: "pause", value: .bool(true)),
            "property-change-unavailable " + WireMpv.propertyChange(id: 2, name: "time-pos", value: nil),
            "start-file " + MpvEventLine("start-file", WireMpv.StartFile(playlistEntryId: 3)).line,
            "end-file " + MpvEventLine("end-file", WireMpv.EndFile(reason: "eof", playlistEntryId: 3)).line,
            "end-file-error " + MpvEventLine("end-file", WireMpv.EndFile(reason: "error", playlistEntryId: 3, fileError: "Not found")).line,
            "shutdown " + MpvEventLine("shutdown").line,
        ]
    }

    func testReplyAndEventLinesMatchTheGoldenFile() throws {
        let file = Self.directory.appendingPathComponent("mpv.jsonl")
        let lines = Self.goldenLines()
        if ProcessInfo.processInfo.environment["GSTPLAY_UPDATE_GOLDEN"] == "1" {
            try (lines.joined(separator: "\n") + "\n").write(to: file, atomically: true, encoding: .utf8)
        }
        let golden = try String(contentsOf: file, encoding: .utf8).split(separator: "\n").map(String.init)
        XCTAssertEqual(lines, golden)
    }
}
