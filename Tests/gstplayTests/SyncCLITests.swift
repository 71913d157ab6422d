import Foundation
import Glibc
import TestSupport
import XCTest

/// `--sync-serve` and `--sync-to` on real processes (fake sinks with `sync=true`, 127.0.0.1):
/// a leader and two followers. Sync is judged by what the players report, never by wall-clock
/// timing: each `status` carries a point of the player's timeline on the shared clock
/// (`sync.clock_time_ns`, `sync.position_at_clock_ns`); players in sync give points on one line
/// (position - clock time is the same), whatever the load and whenever each answers. The bound
/// (20 ms) is loose on purpose: the net client clock converges to well under 1 ms on loopback.
final class SyncCLITests: XCTestCase {
    private let sinks = ["--video-sink", "fakesink sync=true", "--audio-sink", "fakesink sync=true"]
    private let bound: Int64 = 20_000_000

    /// One `status` reply's sync part.
    private struct Point {
        var state: String
        var locked: Bool
        var clock: Int64?
        var position: Int64?
        var generation: Int?
        var monotonic: Int64?
    }

    private var nextID = 100

    private func status(of child: GstplayProcess) -> Point? {
        nextID += 1
        let id = nextID
        let mark = child.stdoutLines.count
        child.send(#"{"command": "status", "request_id": \#(id)}"#)
        guard let reply = child.waitForJSON(after: mark, timeout: 30, { ($0["request_id"] as? Int) == id }),
              let data = reply["data"] as? [String: Any], let sync = data["sync"] as? [String: Any] else { return nil }
        return Point(state: data["state"] as? String ?? "", locked: sync["locked"] as? Bool ?? false,
                     clock: (sync["clock_time_ns"] as? NSNumber)?.int64Value, position: (sync["position_at_clock_ns"] as? NSNumber)?.int64Value,
                     generation: sync["generation"] as? Int, monotonic: (sync["monotonic_ns"] as? NSNumber)?.int64Value)
    }

    /// How far `follower`'s timeline is from `leader`'s (ns; positive: the follower is ahead), nil
    /// when either does not play.
    private func offset(_ follower: Point, from leader: Point) -> Int64? {
        guard let fc = follower.clock, let fp = follower.position, let lc = leader.clock, let lp = leader.position else { return nil }
        return (fp - fc) - (lp - lc)
    }

    /// Polls until both followers' timelines are within the bound of the leader's; returns the
    /// last offsets seen (the assertion is the caller's).
    @discardableResult
    private func waitForOneTimeline(_ leader: GstplayProcess, _ followers: [GstplayProcess], attempts: Int = 60) -> [Int64?] {
        var offsets: [Int64?] = []
        for _ in 0..<attempts {
            guard let lead = status(of: leader) else { return [] }
            offsets = followers.map { status(of: $0).flatMap { offset($0, from: lead) } }
            if offsets.allSatisfy({ $0.map { abs($0) <= bound } ?? false }) {
                // On one machine the leader's clock is CLOCK_MONOTONIC: each follower's clock error.
                let errors = followers.compactMap { status(of: $0) }.compactMap { point in point.clock.flatMap { c in point.monotonic.map { c - $0 } } }
                print("sync: follower clock errors (ns, clock - CLOCK_MONOTONIC):", errors)
                return offsets
            }
            usleep(200_000)
        }
        return offsets
    }

    private func startLeader(port: Int = 0, media: String = "h264-aac-10s.mp4") throws -> (GstplayProcess, Int) {
        let leader = try GstplayProcess(["--json"] + sinks + ["--sync-serve=127.0.0.1:\(port)", GstplayProcess.fixture(media)]).started()
        let serving = leader.waitForJSON(timeout: 30) { $0["event"] as? String == "sync-serving" }
        let clockPort = serving?["clock_port"] as? Int ?? 0
        XCTAssertNotEqual(clockPort, 0, leader.stderr)
        return (leader, clockPort)
    }

    private func startFollower(port: Int) throws -> GstplayProcess {
        try GstplayProcess(["--json"] + sinks + ["--sync-to", "127.0.0.1:\(port)"]).started()
    }

    /// Ends `children` (SIGTERM) and waits for each to exit, so no `GstplayProcess` outlives the
    /// test with its child (LeakSanitizer's whole-process check counts one that does).
    private func stop(_ children: [GstplayProcess]) {
        for child in children { child.send(signal: SIGTERM) }
        for child in children { _ = child.waitForExit(timeout: 30) }
    }

    private func waitForEvent(_ child: GstplayProcess, _ name: String, after mark: Int = 0, timeout: TimeInterval = 60) -> [String: Any]? {
        child.waitForJSON(after: mark, timeout: timeout) { $0["event"] as? String == name }
    }

    func testFollowersLockPlayPauseAndSeekWithTheLeader() throws {
        let (leader, port) = try startLeader()
        leader.send("pause")
        let followers = try [startFollower(port: port), startFollower(port: port)]
        for follower in followers {
            XCTAssertNotNil(waitForEvent(follower, "sync-locked"), follower.stdout + follower.stderr)
        }
        // Playing from 1 s: both followers on the leader's timeline.
        leader.send("seek 1")
        leader.send("play")
        let offsets = waitForOneTimeline(leader, followers)
        print("sync offsets after play (ns):", offsets, "load:", (try? String(contentsOfFile: "/proc/loadavg")) ?? "")
        XCTAssertEqual(offsets.count, 2)
        for offset in offsets { XCTAssertLessThanOrEqual(abs(offset ?? .max), bound, "follower off the leader's timeline") }

        // Pause on the leader reaches both followers, at its position.
        let marks = followers.map { $0.stdoutLines.count }
        leader.send("pause")
        for (follower, mark) in zip(followers, marks) {
            XCTAssertNotNil(follower.waitForJSON(after: mark, timeout: 60) { $0["event"] as? String == "state" && $0["to"] as? String == "paused" },
                            follower.stdout)
        }
        // A seek while paused, then play: both followers again on one timeline.
        leader.send("seek 4")
        leader.send("play")
        let afterSeek = waitForOneTimeline(leader, followers)
        print("sync offsets after seek (ns):", afterSeek)
        for offset in afterSeek { XCTAssertLessThanOrEqual(abs(offset ?? .max), bound, "follower off the leader's timeline after a seek") }
        if let lead = status(of: leader), let position = lead.position {
            XCTAssertGreaterThanOrEqual(position, 4_000_000_000, "the leader plays from its seek")
        }
        leader.closeInput()
        stop([leader] + followers)
    }

    func testAKilledLeaderLeavesFollowersPlayingAndARestartedOneRelocksThem() throws {
        let (leader, port) = try startLeader()
        leader.send("pause")                        // the 10 s item plays only from here: it must not end before the kill
        let followers = try [startFollower(port: port), startFollower(port: port)]
        for follower in followers { XCTAssertNotNil(waitForEvent(follower, "sync-locked"), follower.stdout + follower.stderr) }
        let playMarks = followers.map { $0.stdoutLines.count }
        leader.send("play")
        for (follower, mark) in zip(followers, playMarks) {
            XCTAssertNotNil(follower.waitForJSON(after: mark, timeout: 60) { $0["event"] as? String == "state" && $0["to"] as? String == "playing" },
                            follower.stdout)
        }

        // A follower's own transport command: refused with one line, and nothing changes.
        followers[0].send("pause")
        XCTAssertNotNil(followers[0].waitForJSON(timeout: 30) {
            ($0["error"] as? String) == "following 127.0.0.1:\(port): transport commands go to the leader"
        }, followers[0].stdout)

        let marks = followers.map { $0.stdoutLines.count }
        leader.send(signal: SIGKILL)
        _ = leader.waitForExit(timeout: 30)
        for (follower, mark) in zip(followers, marks) {
            let lost = waitForEvent(follower, "sync-lost", after: mark)
            XCTAssertNotNil(lost, follower.stdout)
            XCTAssertEqual(status(of: follower)?.state, "playing", "a follower plays on without its leader")
        }

        // The leader comes back on the same port, with a new session: the followers re-lock.
        let relockMarks = followers.map { $0.stdoutLines.count }
        let (again, _) = try startLeader(port: port)
        for (follower, mark) in zip(followers, relockMarks) {
            XCTAssertNotNil(waitForEvent(follower, "sync-locked", after: mark), follower.stdout + follower.stderr)
        }
        let offsets = waitForOneTimeline(again, followers)
        print("sync offsets after the leader's restart (ns):", offsets)
        for offset in offsets { XCTAssertLessThanOrEqual(abs(offset ?? .max), bound, "follower off the restarted leader's timeline") }
        stop([again] + followers)
    }

    func testFollowerRefusesTransportInTextModeWithOneLine() throws {
        let (leader, port) = try startLeader()
        let follower = try GstplayProcess(sinks + ["--sync-to", "127.0.0.1:\(port)"]).started()
        follower.send("seek 3")
        XCTAssertTrue(follower.waitFor(timeout: 30) { _, err in
            err.contains("gstplay: error: following 127.0.0.1:\(port): transport commands go to the leader\n")
        }, follower.stderr)
        stop([follower, leader])
    }

    /// MPRIS is a door too: a follower's `CanPlay`, `CanPause`, `CanSeek`, `CanGoNext` are false, `playerctl`'s
    /// transport calls change nothing, a direct `Seek` call is answered with the refusal line, and
    /// its volume is still its own.
    func testAFollowersMPRISRefusesTransportAndKeepsItsVolume() throws {
        let bus = try SessionBus.withPlayerctl()
        defer { bus.stop() }
        let (leader, port) = try startLeader()
        let follower = try GstplayProcess(["--json", "--mpris"] + sinks + ["--sync-to", "127.0.0.1:\(port)"], environment: bus.environment()).started()
        XCTAssertNotNil(waitForEvent(follower, "sync-locked"), follower.stderr)
        let busName = "org.mpris.MediaPlayer2.gstplay.instance\(follower.process.processIdentifier)"
        XCTAssertTrue(eventually(timeout: .seconds(10), interval: .milliseconds(100)) {
            bus.playerctl("-l").contains("gstplay.instance\(follower.process.processIdentifier)")
        }, follower.stderr)
        func property(_ name: String) -> String {
            bus.run("gdbus", ["call", "--session", "--dest", busName, "--object-path", "/org/mpris/MediaPlayer2", "--method",
                              "org.freedesktop.DBus.Properties.Get", "org.mpris.MediaPlayer2.Player", name]).stdout
        }
        XCTAssertEqual(property("CanControl").trimmingCharacters(in: .whitespacesAndNewlines), "(<true>,)", "its volume is still controlled")
        for name in ["CanPlay", "CanPause", "CanSeek", "CanGoNext"] {
            XCTAssertEqual(property(name).trimmingCharacters(in: .whitespacesAndNewlines), "(<false>,)", name)
        }
        let seek = bus.run("gdbus", ["call", "--session", "--dest", busName, "--object-path", "/org/mpris/MediaPlayer2", "--method",
                                     "org.mpris.MediaPlayer2.Player.Seek", "3000000"])
        XCTAssertNotEqual(seek.status, 0)
        XCTAssertTrue(seek.stderr.contains("AccessDenied") && seek.stderr.contains("following 127.0.0.1:\(port): transport commands go to the leader"), seek.stderr)
        XCTAssertTrue(eventually(timeout: .seconds(30), interval: .milliseconds(200)) { self.status(of: follower)?.state == "playing" },
                      follower.stdout)
        let mark = follower.stdoutLines.count
        bus.playerctl("-p", "gstplay", "pause")
        bus.playerctl("-p", "gstplay", "volume", "0.4")
        XCTAssertEqual(Double(bus.playerctl("-p", "gstplay", "volume")) ?? -1, 0.4, accuracy: 0.001, "the follower's volume is its own")
        XCTAssertNil(follower.waitForJSON(after: mark, timeout: 2) { $0["event"] as? String == "state" && $0["to"] as? String == "paused" },
                     "playerctl pause changed nothing")
        stop([follower, leader])
    }

    /// The threads whose timing is the sync's (each sink's streaming thread, the leader's clock
    /// provider and the follower's clock thread) run `SCHED_FIFO` where allowed (this suite runs
    /// as root: `CAP_SYS_NICE`); the rest of the player stays ordinary. Read from
    /// `/proc/PID/task/*/stat` (field 41, the policy: 1 is `SCHED_FIFO`).
    func testSyncPlayersRenderAndStampTheClockOnRealtimeThreads() throws {
        try XCTSkipUnless(geteuid() == 0, "real-time scheduling needs CAP_SYS_NICE or an RLIMIT_RTPRIO; this user has neither by default")
        let (leader, port) = try startLeader()
        let follower = try startFollower(port: port)
        XCTAssertNotNil(waitForEvent(follower, "sync-locked"), follower.stderr)
        /// (thread name, policy) of each thread of `child`.
        func threads(_ child: GstplayProcess) -> [(String, Int)] {
            let task = "/proc/\(child.process.processIdentifier)/task"
            return ((try? FileManager.default.contentsOfDirectory(atPath: task)) ?? []).compactMap { tid in
                guard let stat = try? String(contentsOfFile: "\(task)/\(tid)/stat", encoding: .utf8),
                      let open = stat.firstIndex(of: "("), let close = stat.lastIndex(of: ")") else { return nil }
                let fields = stat[stat.index(after: close)...].split(separator: " ")    // fields 3… (state first)
                guard fields.count > 38, let policy = Int(fields[38]) else { return nil }
                return (String(stat[stat.index(after: open)..<close]), policy)
            }
        }
        XCTAssertTrue(eventually(timeout: .seconds(10), interval: .milliseconds(100)) {
            threads(follower).filter { $0.1 == 1 }.count >= 3 && threads(leader).filter { $0.1 == 1 }.count >= 3
        }, "follower: \(threads(follower)), leader: \(threads(leader))")
        for child in [leader, follower] {
            let realtime = threads(child).filter { $0.1 == 1 }.map(\.0)
            XCTAssertTrue(realtime.contains("vqueue:src") && realtime.contains("aqueue:src"), "the sinks' threads: \(realtime)")
            XCTAssertLessThanOrEqual(realtime.count, 4, "only the sinks' and the clock's threads: \(realtime)")
        }
        stop([follower, leader])
    }

    func testAudioOnlyItemsPlayInSyncToo() throws {
        let (leader, port) = try startLeader(media: "audio-only-4s.ogg")
        leader.send("pause")
        let follower = try startFollower(port: port)
        XCTAssertNotNil(waitForEvent(follower, "sync-locked"), follower.stdout + follower.stderr)
        leader.send("play")
        let offsets = waitForOneTimeline(leader, [follower])
        print("sync offsets, audio only (ns):", offsets)
        XCTAssertLessThanOrEqual(abs(offsets.first.flatMap { $0 } ?? .max), bound, "follower off the leader's timeline")
        stop([leader, follower])
    }

    func testALeaderWhosePortIsTakenExits5() throws {
        let (leader, port) = try startLeader()
        let second = try GstplayProcess.run(sinks + ["--sync-serve=127.0.0.1:\(port)", GstplayProcess.fixture("h264-aac-10s.mp4")])
        XCTAssertEqual(second.status, 5, second.stderr)
        XCTAssertTrue(second.stderr.hasPrefix("gstplay: error: --sync-serve: cannot listen on 127.0.0.1:\(port)"), second.stderr)
        XCTAssertEqual(second.stderr.split(separator: "\n").count, 1, second.stderr)
        stop([leader])
    }

    /// `--sync-clock` sends the clock's requests elsewhere: to a UDP port that never answers, the
    /// follower connects to the leader but never locks, and says it waits for the clock.
    func testSyncClockSendsTheClockRequestsWhereItSays() throws {
        let (leader, port) = try startLeader()
        let silent = try SilentUDPPort()
        defer { silent.close() }
        let follower = try GstplayProcess(["--json"] + sinks + ["--sync-to", "127.0.0.1:\(port)", "--sync-clock", "127.0.0.1:\(silent.port)"]).started()
        var reason: String?
        for _ in 0..<100 {
            nextID += 1
            let id = nextID, mark = follower.stdoutLines.count
            follower.send(#"{"command": "status", "request_id": \#(id)}"#)
            let reply = follower.waitForJSON(after: mark, timeout: 30) { ($0["request_id"] as? Int) == id }
            let sync = (reply?["data"] as? [String: Any])?["sync"] as? [String: Any]
            XCTAssertEqual(sync?["locked"] as? Bool, false, follower.stdout)
            reason = sync?["reason"] as? String
            if reason == "waiting for the leader's clock" { break }
            usleep(100_000)
        }
        XCTAssertEqual(reason, "waiting for the leader's clock", follower.stdout)
        XCTAssertFalse(follower.stdout.contains("sync-locked"), follower.stdout)
        stop([follower, leader])
    }

    func testSyncOptionsAreCheckedBeforeAnythingPlays() throws {
        let both = try GstplayProcess.run(["--sync-serve", "--sync-to", "127.0.0.1:5800", GstplayProcess.fixture("h264-aac-10s.mp4")])
        XCTAssertEqual(both.status, 2)
        XCTAssertTrue(both.stderr.contains("--sync-serve and --sync-to cannot be used together"), both.stderr)
        let locations = try GstplayProcess.run(["--sync-to", "127.0.0.1:5800", GstplayProcess.fixture("h264-aac-10s.mp4")])
        XCTAssertEqual(locations.status, 2)
        let badEndpoint = try GstplayProcess.run(["--sync-to", "nowhere"])
        XCTAssertEqual(badEndpoint.status, 2)
        XCTAssertTrue(badEndpoint.stderr.contains("--sync-to needs HOST:PORT"), badEndpoint.stderr)
    }
}
