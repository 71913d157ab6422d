import Foundation
import TestSupport
import XCTest

/// MPRIS 2 driven by real clients on a private session bus (``SessionBus``):
/// `playerctl` and `gdbus`, each answer checked against gstplay's own `--json` events.
final class MPRISCLITests: XCTestCase {
    private var bus: SessionBus!

    override func setUpWithError() throws {
        bus = try SessionBus.withPlayerctl()
    }

    override func tearDown() {
        bus?.stop()
        bus = nil
    }

    /// gstplay `--mpris --json` on this bus, playing `fixtures`, once its bus name is visible.
    private func startPlayer(_ fixtures: [String], extra: [String] = []) throws -> GstplayProcess {
        let child = try GstplayProcess(["--mpris", "--json"] + extra + fixtures.map(GstplayProcess.fixture),
                                       environment: bus.environment()).started()
        XCTAssertNotNil(child.waitForJSON { $0["event"] as? String == "state" && $0["to"] as? String == "playing" },
                        child.stderr)
        XCTAssertTrue(eventually(timeout: .seconds(10), interval: .milliseconds(100)) {
            self.bus.playerctl("-l").contains("gstplay.instance\(child.process.processIdentifier)")
        }, "playerctl -l never listed gstplay.instance\(child.process.processIdentifier); stderr: \(child.stderr)")
        return child
    }

    private func busName(_ child: GstplayProcess) -> String { "org.mpris.MediaPlayer2.gstplay.instance\(child.process.processIdentifier)" }

    /// Waits for a `--json` event named `name` that satisfies `predicate`, after `skip` lines.
    private func waitForEvent(_ child: GstplayProcess, _ name: String, after skip: Int = 0,
                              _ predicate: @escaping ([String: Any]) -> Bool = { _ in true }) -> [String: Any]? {
        var found: [String: Any]?
        child.waitFor { out, _ in
            found = GstplayProcess.completeLines(out).dropFirst(skip).lazy.compactMap(jsonObject)
                .first { $0["event"] as? String == name && predicate($0) }
            return found != nil
        }
        return found
    }

    /// The main path: status Playing, pause pauses (the JSON state event says so),
    /// mpris:length is the duration within 1 ms, xesam:title the file name (no title tag); then
    /// position, play-pause and Quit.
    func testStatusMetadataPauseAndPosition() throws {
        let child = try startPlayer(["h264-aac-10s.mp4"])
        XCTAssertEqual(bus.playerctl("-p", "gstplay", "status"), "Playing")
        let duration = try XCTUnwrap(waitForEvent(child, "duration")?["duration"] as? Double)
        let length = try XCTUnwrap(Double(bus.playerctl("-p", "gstplay", "metadata", "mpris:length")))
        XCTAssertEqual(length / 1_000_000, duration, accuracy: 0.001, "mpris:length \(length) µs vs --json duration \(duration) s")
        XCTAssertEqual(bus.playerctl("-p", "gstplay", "metadata", "xesam:url"),
                       URL(fileURLWithPath: GstplayProcess.fixture("h264-aac-10s.mp4")).absoluteString)
        XCTAssertEqual(bus.playerctl("-p", "gstplay", "metadata", "xesam:title"), "h264-aac-10s.mp4",
                       "a video without a title tag: its file name, as the window's title")
        let trackID = bus.playerctl("-p", "gstplay", "metadata", "mpris:trackid")   // playerctl quotes object paths
        XCTAssertEqual(trackID, "'/org/gstplay/track/0'", "the queue item's id")

        let mark = child.stdoutLines.count
        bus.playerctl("-p", "gstplay", "pause")
        XCTAssertNotNil(waitForEvent(child, "state", after: mark) { $0["to"] as? String == "paused" }, child.stdout)
        XCTAssertEqual(bus.playerctl("-p", "gstplay", "status"), "Paused")
        let paused = try XCTUnwrap(waitForEvent(child, "position", after: mark)?["position"] as? Double)
        let reported = try XCTUnwrap(Double(bus.playerctl("-p", "gstplay", "position")))
        XCTAssertEqual(reported, paused, accuracy: 0.1, "playerctl position vs the --json position while paused")

        let resumed = child.stdoutLines.count
        bus.playerctl("-p", "gstplay", "play-pause")
        XCTAssertNotNil(waitForEvent(child, "state", after: resumed) { $0["to"] as? String == "playing" })
        XCTAssertEqual(bus.playerctl("-p", "gstplay", "status"), "Playing")

        let quit = bus.run("gdbus", ["call", "--session", "--dest", busName(child), "--object-path", "/org/mpris/MediaPlayer2",
                                     "--method", "org.mpris.MediaPlayer2.Quit"])
        XCTAssertEqual(quit.status, 0, quit.stderr)
        XCTAssertEqual(child.waitForExit(), 0, child.stderr)
    }

    /// Tags and cover art (the tags feature's) in the metadata: `mpris:artUrl` is a file in the
    /// cache directory with the embedded picture's bytes, removed when gstplay quits.
    func testTagsAndArtURL() throws {
        let child = try startPlayer(["tagged-cover.mp3"])
        XCTAssertTrue(eventually(timeout: .seconds(5), interval: .milliseconds(100)) {
            self.bus.playerctl("-p", "gstplay", "metadata", "xesam:title") == "Test Tone"
        }, bus.playerctl("-p", "gstplay", "metadata"))
        XCTAssertEqual(bus.playerctl("-p", "gstplay", "metadata", "xesam:artist"), "gstplay Fixtures")
        XCTAssertEqual(bus.playerctl("-p", "gstplay", "metadata", "xesam:album"), "Fixture Album")
        let art = try XCTUnwrap(URL(string: bus.playerctl("-p", "gstplay", "metadata", "mpris:artUrl")))
        XCTAssertTrue(art.isFileURL, art.absoluteString)
        let cache = try XCTUnwrap(ProcessInfo.processInfo.environment["XDG_CACHE_HOME"])
        XCTAssertTrue(art.path.hasPrefix(cache + "/gstplay/mpris/"), art.path)
        XCTAssertTrue(art.path.hasSuffix(".png"), art.path)
        XCTAssertEqual(try Data(contentsOf: art), try Data(contentsOf: URL(fileURLWithPath: GstplayProcess.fixture("cover-art.png"))),
                       "the embedded picture's bytes")
        child.send("quit")
        XCTAssertEqual(child.waitForExit(), 0)
        XCTAssertFalse(FileManager.default.fileExists(atPath: art.path), "the picture outlived gstplay")
    }

    /// Seeking to a position (SetPosition), by an offset (Seek) and setting the volume from
    /// playerctl land in the player (the JSON seek-done and volume events), and playerctl reads them back.
    func testSetPositionAndVolume() throws {
        let child = try startPlayer(["h264-aac-10s.mp4"])
        var mark = child.stdoutLines.count
        bus.playerctl("-p", "gstplay", "position", "5")
        let landed = try XCTUnwrap(waitForEvent(child, "seek-done", after: mark)?["position"] as? Double)
        XCTAssertEqual(landed, 5, accuracy: 0.1)
        XCTAssertEqual(try XCTUnwrap(Double(bus.playerctl("-p", "gstplay", "position"))), 5, accuracy: 0.6)

        mark = child.stdoutLines.count
        bus.playerctl("-p", "gstplay", "position", "2-")            // MPRIS Seek: 2 s back
        let back = try XCTUnwrap(waitForEvent(child, "seek-done", after: mark)?["position"] as? Double)
        XCTAssertEqual(back, 3, accuracy: 0.5)

        mark = child.stdoutLines.count
        bus.playerctl("-p", "gstplay", "volume", "0.5")
        let linear = try XCTUnwrap(waitForEvent(child, "volume", after: mark)?["linear"] as? Double)
        XCTAssertEqual(linear, 0.5, accuracy: 0.001)
        XCTAssertEqual(try XCTUnwrap(Double(bus.playerctl("-p", "gstplay", "volume"))), 0.5, accuracy: 0.001)
        child.send("quit")
        XCTAssertEqual(child.waitForExit(), 0)
    }

    /// Next, loop and shuffle from playerctl move the queue (the JSON item and playlist events).
    func testNextLoopAndShuffle() throws {
        let child = try startPlayer(["vp8-opus-4s.webm", "h264-aac-10s.mp4"])
        XCTAssertEqual(bus.playerctl("-p", "gstplay", "loop"), "None")
        var mark = child.stdoutLines.count
        bus.playerctl("-p", "gstplay", "next")
        XCTAssertNotNil(waitForEvent(child, "item", after: mark) { $0["index"] as? Int == 1 && $0["reason"] as? String == "skipped" })
        XCTAssertTrue(eventually(timeout: .seconds(5), interval: .milliseconds(100)) {
            self.bus.playerctl("-p", "gstplay", "metadata", "xesam:url").hasSuffix("h264-aac-10s.mp4")
        })

        mark = child.stdoutLines.count
        bus.playerctl("-p", "gstplay", "loop", "Playlist")
        XCTAssertNotNil(waitForEvent(child, "playlist", after: mark) { $0["loop"] as? String == "all" })
        XCTAssertEqual(bus.playerctl("-p", "gstplay", "loop"), "Playlist")

        mark = child.stdoutLines.count
        bus.playerctl("-p", "gstplay", "shuffle", "On")
        XCTAssertNotNil(waitForEvent(child, "playlist", after: mark) { $0["shuffle"] as? Bool == true })
        XCTAssertEqual(bus.playerctl("-p", "gstplay", "shuffle"), "On")
        child.send("quit")
        XCTAssertEqual(child.waitForExit(), 0)
    }

    /// The TrackList interface shows the queue (Tracks, GetTracksMetadata) and GoTo plays an item;
    /// OpenUri plays a URI now (the JSON item and uri events).
    func testTrackListGoToAndOpenUri() throws {
        let child = try startPlayer(["vp8-opus-4s.webm", "h264-aac-10s.mp4"])
        func call(_ arguments: [String]) -> String {
            let result = bus.run("gdbus", ["call", "--session", "--dest", busName(child), "--object-path", "/org/mpris/MediaPlayer2"] + arguments)
            XCTAssertEqual(result.status, 0, result.stderr)
            return result.stdout
        }
        let tracks = call(["--method", "org.freedesktop.DBus.Properties.Get", "org.mpris.MediaPlayer2.TrackList", "Tracks"])
        XCTAssertEqual(tracks.trimmingCharacters(in: .whitespacesAndNewlines),
                       "(<[objectpath '/org/gstplay/track/0', '/org/gstplay/track/1']>,)")
        let metadata = call(["--method", "org.mpris.MediaPlayer2.TrackList.GetTracksMetadata", "['/org/gstplay/track/1']"])
        XCTAssertTrue(metadata.contains("h264-aac-10s.mp4") && metadata.contains("'/org/gstplay/track/1'"), metadata)

        var mark = child.stdoutLines.count
        _ = call(["--method", "org.mpris.MediaPlayer2.TrackList.GoTo", "/org/gstplay/track/1"])
        XCTAssertNotNil(waitForEvent(child, "item", after: mark) { $0["index"] as? Int == 1 })

        mark = child.stdoutLines.count
        let third = URL(fileURLWithPath: GstplayProcess.fixture("theora-vorbis-4s.ogg")).absoluteString
        _ = call(["--method", "org.mpris.MediaPlayer2.Player.OpenUri", third])
        XCTAssertNotNil(waitForEvent(child, "uri", after: mark) { $0["uri"] as? String == third }, child.stdout)
        XCTAssertTrue(eventually(timeout: .seconds(5), interval: .milliseconds(100)) {
            self.bus.playerctl("-p", "gstplay", "metadata", "xesam:url") == third
        })
        child.send("quit")
        XCTAssertEqual(child.waitForExit(), 0)
    }

    /// `Seeked` follows a seek made on the console (not through MPRIS), once; position ticks
    /// raise no `PropertiesChanged`.
    func testSeekedFromConsoleAndNoPropertiesChangedPerTick() throws {
        let child = try startPlayer(["h264-aac-10s.mp4"])
        let monitor = try bus.monitor(busName(child)) { attempt in
            child.send("volume \(90 - attempt)")
            return "'Volume'"
        }
        defer { kill(monitor.process.processIdentifier, SIGTERM); _ = monitor.waitForExit(timeout: 5) }
        let pokes = monitor.stdoutLines.count
        let ticks = child.jsonLines.filter { $0["event"] as? String == "position" }.count
        XCTAssertNotNil(waitForEvent(child, "position", after: child.stdoutLines.count))
        XCTAssertNotNil(waitForEvent(child, "position", after: child.stdoutLines.count))
        XCTAssertGreaterThan(child.jsonLines.filter { $0["event"] as? String == "position" }.count, ticks + 1)
        XCTAssertFalse(monitor.stdoutLines.dropFirst(pokes).contains { $0.contains("PropertiesChanged") },
                       "PropertiesChanged on a position tick:\n\(monitor.stdout)")

        child.send("seek 3")
        XCTAssertTrue(monitor.waitForLine(containing: "Seeked"), monitor.stdout)
        let seeked = monitor.stdoutLines.filter { $0.contains("org.mpris.MediaPlayer2.Player.Seeked") }
        XCTAssertEqual(seeked.count, 1, monitor.stdout)
        XCTAssertTrue(seeked.first?.contains("int64 3") ?? false, "Seeked carries about 3 s in µs: \(seeked)")
        child.send("quit")
        XCTAssertEqual(child.waitForExit(), 0)
    }

    /// `gdbus introspect` shows the spec's interfaces with their members and types.
    func testIntrospectionMatchesTheSpec() throws {
        let child = try startPlayer(["vp8-opus-4s.webm"])
        let result = bus.run("gdbus", ["introspect", "--session", "--dest", busName(child), "--object-path", "/org/mpris/MediaPlayer2"])
        XCTAssertEqual(result.status, 0, result.stderr)
        let expected = [
            "interface org.mpris.MediaPlayer2 {", "Raise();", "Quit();", "readonly b CanQuit", "readonly b CanRaise",
            "readonly b HasTrackList", "readonly s Identity", "readonly s DesktopEntry", "readonly as SupportedUriSchemes",
            "readonly as SupportedMimeTypes",
            "interface org.mpris.MediaPlayer2.Player {", "Next();", "Previous();", "Pause();", "PlayPause();", "Stop();", "Play();",
            "Seek(in  x Offset);", "SetPosition(in  o TrackId,", "OpenUri(in  s Uri);", "Seeked(x Position);",
            "readonly s PlaybackStatus", "readwrite s LoopStatus", "readwrite d Rate", "readwrite b Shuffle",
            "readonly a{sv} Metadata", "readwrite d Volume", "readonly x Position", "readonly d MinimumRate",
            "readonly d MaximumRate", "readonly b CanGoNext", "readonly b CanGoPrevious", "readonly b CanPlay",
            "readonly b CanPause", "readonly b CanSeek", "readonly b CanControl",
            "interface org.mpris.MediaPlayer2.TrackList {", "GetTracksMetadata(in  ao TrackIds,", "GoTo(in  o TrackId);",
            "TrackListReplaced(ao Tracks,", "readonly ao Tracks", "readonly b CanEditTracks",
        ]
        for line in expected { XCTAssertTrue(result.stdout.contains(line), "missing \(line) in:\n\(result.stdout)") }
        child.send("quit")
        XCTAssertEqual(child.waitForExit(), 0)
    }

    /// A `Rate` too close to 0 (1e-300 crashed GStreamer's threads) is refused with InvalidArgs
    /// naming the rule, and the rate stays 1; `MinimumRate`/`MaximumRate` are the bounds the rule
    /// allows (−1 and 2); the slowest rate, 0.01, is applied.
    func testATinyRateIsRefusedAndTheRateBoundsAgree() throws {
        let child = try startPlayer(["h264-aac-10s.mp4"])
        let call = ["call", "--session", "--dest", busName(child), "--object-path", "/org/mpris/MediaPlayer2", "--method"]
        func setRate(_ value: String) -> (status: Int32?, stdout: String, stderr: String) {
            bus.run("gdbus", call + ["org.freedesktop.DBus.Properties.Set", "org.mpris.MediaPlayer2.Player", "Rate", "<\(value)>"])
        }
        func property(_ name: String) -> String {
            bus.run("gdbus", call + ["org.freedesktop.DBus.Properties.Get", "org.mpris.MediaPlayer2.Player", name])
                .stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        }
        for tiny in ["1e-300", "-1e-300", "0.001"] {
            let refused = setRate(tiny)
            XCTAssertNotEqual(refused.status, 0, tiny)
            XCTAssertTrue(refused.stderr.contains("InvalidArgs") && refused.stderr.contains("too close to 0"), refused.stderr)
        }
        XCTAssertEqual(property("Rate"), "(<1.0>,)")
        XCTAssertEqual(property("MinimumRate"), "(<-1.0>,)")
        XCTAssertEqual(property("MaximumRate"), "(<2.0>,)")
        let mark = child.stdoutLines.count
        XCTAssertEqual(setRate("0.01").status, 0)
        XCTAssertNotNil(waitForEvent(child, "rate", after: mark) { $0["rate"] as? Double == 0.01 }, child.stdout)
        child.send("quit")
        XCTAssertEqual(child.waitForExit(), 0)
        XCTAssertFalse(child.stderr.contains("CRITICAL"), child.stderr)
    }

    /// `--json` alone exports nothing (MPRIS is off for it unless asked for).
    func testJSONAloneIsNotOnTheBus() throws {
        let child = try GstplayProcess(["--json", GstplayProcess.fixture("vp8-opus-4s.webm")], environment: bus.environment()).started()
        XCTAssertNotNil(child.waitForJSON { $0["event"] as? String == "state" && $0["to"] as? String == "playing" })
        XCTAssertFalse(bus.playerctl("-l").contains("gstplay"))
        child.send("quit")
        XCTAssertEqual(child.waitForExit(), 0)
    }

    /// `--mpris` without a session bus: a note, and playback goes on to the end (exit 0).
    func testMPRISWithoutASessionBusPlaysOn() throws {
        var environment = ProcessInfo.processInfo.environment
        environment["DBUS_SESSION_BUS_ADDRESS"] = nil
        environment["DISPLAY"] = nil
        let result = try GstplayProcess.run(["--mpris", "--start", "3", GstplayProcess.fixture("vp8-opus-4s.webm")],
                                            environment: environment)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stderr.contains("MPRIS"), "a note says MPRIS is off: \(result.stderr)")
    }
}
