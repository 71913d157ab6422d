import Backend
import Foundation
import ProcessProbe
import TestSupport
import XCTest

/// The MPRIS feature as an embedder uses it (`StandardFeatures.mpris`), on a private session bus
/// (``SessionBus``) and watched with real clients (`playerctl`, `gdbus`).
final class MPRISFeatureTests: XCTestCase {
    private var bus: SessionBus!

    override func setUpWithError() throws {
        bus = try SessionBus.withPlayerctl()
    }

    override func tearDown() {
        bus?.stop()
        bus = nil
    }

    /// A fake-sink player with MPRIS on this bus; returns it with the bus name it announced.
    private func makePlayer(_ recorder: EventRecorder) throws -> (Player, String) {
        let address = bus.address
        let player = Player.forTesting(recorder, standard: {
            var mpris = MPRISConfiguration()
            mpris.busAddress = address
            $0.mpris = mpris
        })
        let name = recorder.waitForValue("mpris exported") { event -> String? in
            if case .exported(let name)? = event.payload(as: MPRISEvent.self) { return name }
            return nil
        }
        return (player, try XCTUnwrap(name))
    }

    private func property(_ name: String, of busName: String) -> String {
        bus.run("gdbus", ["call", "--session", "--dest", busName, "--object-path", "/org/mpris/MediaPlayer2", "--method",
                          "org.freedesktop.DBus.Properties.Get", "org.mpris.MediaPlayer2.Player", name]).stdout
            .trimmingCharacters(in: .whitespacesAndNewlines)
    }

    private func hasOwner(_ busName: String) -> Bool {
        bus.run("gdbus", ["call", "--session", "--dest", "org.freedesktop.DBus", "--object-path", "/org/freedesktop/DBus",
                          "--method", "org.freedesktop.DBus.NameHasOwner", busName]).stdout.contains("true")
    }

    /// One feature puts the player on the bus; `shutdown()` takes it off and closes the connection:
    /// players made and shut down one after another reuse the plain name and leave no descriptor
    /// behind (the first round starts GDBus's own worker thread, which stays).
    func testAnEmbeddedPlayerIsOnTheBusUntilShutdown() throws {
        var descriptorsAfter: [Int] = []
        for _ in 0..<4 {
            let recorder = EventRecorder()
            let (player, name) = try makePlayer(recorder)
            XCTAssertEqual(name, "org.mpris.MediaPlayer2.gstplay.instance\(getpid())")
            XCTAssertTrue(eventually { self.hasOwner(name) }, "\(name) never owned")
            player.load(TestMedia.path("vp8-opus-4s.webm"))
            _ = recorder.waitFor("playing", recorder.reachedState(.playing))
            XCTAssertTrue(eventually { self.property("PlaybackStatus", of: name) == "(<'Playing'>,)" })
            player.shutdown()
            XCTAssertFalse(hasOwner(name), "the name outlived shutdown()")
            descriptorsAfter.append(ProcessProbe.current.descriptorCount ?? -1)
        }
        // The test's own client processes close their pipes a moment after they exit: wait for
        // the count to settle at or below the second round's (a leak would add one per round).
        XCTAssertTrue(eventually { (ProcessProbe.current.descriptorCount ?? .max) <= descriptorsAfter[1] },
                      "descriptors after each round: \(descriptorsAfter), now \(ProcessProbe.current.descriptorCount ?? -1)")
    }

    /// Two players at once in one process get two names (the second with a suffix).
    func testTwoPlayersInOneProcessGetTwoNames() throws {
        let first = EventRecorder(), second = EventRecorder()
        let (one, name) = try makePlayer(first)
        defer { one.shutdown() }
        let (two, other) = try makePlayer(second)
        defer { two.shutdown() }
        XCTAssertEqual(name, "org.mpris.MediaPlayer2.gstplay.instance\(getpid())")
        XCTAssertEqual(other, "org.mpris.MediaPlayer2.gstplay.instance\(getpid())_2")
        let listed = bus.playerctl("-l")
        XCTAssertTrue(listed.contains("gstplay.instance\(getpid())\n") || listed.hasSuffix("gstplay.instance\(getpid())"), listed)
        XCTAssertTrue(listed.contains("gstplay.instance\(getpid())_2"), listed)
    }

    /// `PropertiesChanged` comes once for a pause (PlaybackStatus), and `Seeked` once per seek
    /// made through the Player API (not MPRIS).
    func testOnePropertiesChangedPerChangeAndSeekedForAPISeeks() throws {
        let recorder = EventRecorder()
        let (player, name) = try makePlayer(recorder)
        defer { player.shutdown() }
        player.load(TestMedia.path("h264-aac-10s.mp4"))
        _ = recorder.waitFor("playing", recorder.reachedState(.playing))
        let monitor = try bus.monitor(name) { attempt in
            let volume = 0.5 + Double(attempt) / 100
            player.setVolume(volume)
            return "'Volume'"
        }
        defer { kill(monitor.process.processIdentifier, SIGTERM); _ = monitor.waitForExit(timeout: 5) }
        let pokes = monitor.stdoutLines.count

        player.pause()
        XCTAssertTrue(monitor.waitForLine(containing: "'Paused'"), monitor.stdout)
        player.seek(to: MediaTime(seconds: 4))
        XCTAssertTrue(monitor.waitForLine(containing: "Seeked"), monitor.stdout)
        player.play()
        XCTAssertTrue(monitor.waitForLine(containing: "'Playing'"), monitor.stdout)
        let lines = Array(monitor.stdoutLines.dropFirst(pokes))
        XCTAssertEqual(lines.filter { $0.contains("PropertiesChanged") && $0.contains("PlaybackStatus") }.count, 2, "\(lines)")
        XCTAssertEqual(lines.filter { $0.contains("PropertiesChanged") }.count, 2, "a change per signal: \(lines)")
        XCTAssertEqual(lines.filter { $0.contains(".Seeked") }.count, 1, "\(lines)")
        XCTAssertTrue(lines.contains { $0.contains("Seeked (int64 4000000,)") || $0.contains("Seeked (int64 39") }, "\(lines)")
    }

    private static func descriptors() -> [String] {
        (0..<256).compactMap { fd in ProcessProbe.current.descriptorTarget(Int32(fd)).map { "\(fd):\($0)" } }
    }

    /// A live stream (MPEG-TS over UDP from a live `audiotestsrc`) cannot seek: CanSeek is false
    /// and the metadata has no length.
    func testALiveStreamCannotSeek() throws {
        let holder = try SilentUDPPort()   // a free port (the kernel's pick), let go for the player's udpsrc
        let port = holder.port
        holder.close()
        let sender = try GstplayProcess.tool("gst-launch-1.0", ["-q", "audiotestsrc", "is-live=true", "!", "audioconvert", "!", "avenc_mp2",
                                                                "!", "mpegaudioparse", "!", "mpegtsmux", "!",
                                                                "udpsink", "host=127.0.0.1", "port=\(port)"], input: .devNull).started()
        defer { kill(sender.process.processIdentifier, SIGTERM); _ = sender.waitForExit(timeout: 5) }
        let recorder = EventRecorder()
        let (player, name) = try makePlayer(recorder)
        defer { player.shutdown() }
        player.load("udp://127.0.0.1:\(port)")
        _ = recorder.waitFor("playing", timeout: 15, recorder.reachedState(.playing))
        XCTAssertTrue(player.snapshot.isLive)
        XCTAssertEqual(property("CanSeek", of: name), "(<false>,)")
        XCTAssertEqual(property("CanPause", of: name), "(<true>,)")
        XCTAssertFalse(property("Metadata", of: name).contains("mpris:length"))
    }

    /// Without a session bus the feature does nothing but say so.
    func testWithoutASessionBusNothingRuns() throws {
        let saved = ProcessInfo.processInfo.environment["DBUS_SESSION_BUS_ADDRESS"]
        unsetenv("DBUS_SESSION_BUS_ADDRESS")
        defer { if let saved { setenv("DBUS_SESSION_BUS_ADDRESS", saved, 1) } }
        XCTAssertFalse(MPRISFeature.sessionBusAvailable)
        let recorder = EventRecorder()
        let player = Player.forTesting(recorder, standard: { $0.mpris = MPRISConfiguration() })
        defer { player.shutdown() }
        let reason = recorder.waitForValue("mpris unavailable") { event -> String? in
            if case .unavailable(let reason)? = event.payload(as: MPRISEvent.self) { return reason }
            return nil
        }
        XCTAssertEqual(reason, "no session bus (DBUS_SESSION_BUS_ADDRESS is not set)")
        XCTAssertNil(player.snapshot.features[MPRISSnapshot.self])
    }
}
