import Foundation
import Glibc
import TestSupport
import XCTest

/// A leader and two followers on a real network path: the leader in one network namespace, the
/// followers in another, joined by a veth pair (``RendererLab``; needs root). What the players
/// *render* is compared, not what they report: each writes `--render-log` (the CLOCK_REALTIME at
/// which each buffer leaves its sink, after the clock wait; one kernel, so the times compare
/// directly), and the frames both rendered are matched by timestamp.
///
/// How long a lock takes is measured by `make bench-sync` (the late joiner's row), not asserted
/// here: the suite runs eight test processes on two cores.
final class SyncNamespaceCLITests: XCTestCase {
    private let sinks = ["--video-sink", "fakesink sync=true", "--audio-sink", "fakesink sync=true"]

    /// (pts, realtime) of each video buffer `path` logged.
    private func videoRenders(_ path: String) -> [UInt64: Int64] {
        let text = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
        var renders: [UInt64: Int64] = [:]
        for line in text.split(separator: "\n") {
            let fields = line.split(separator: " ")
            guard fields.count == 4, fields[0] == "video", let pts = UInt64(fields[1]), let realtime = Int64(fields[3]) else { continue }
            renders[pts] = realtime
        }
        return renders
    }

    func testTwoFollowersInANamespaceRenderWithinTwoMillisecondsOfTheLeader() throws {
        try XCTSkipUnless(geteuid() == 0, "network namespaces need root (ip netns)")
        let lab = try RendererLab(client: .namespace)
        defer { lab.tearDown() }
        let logs = lab.directory.path
        let leader = lab.gstplay(["--json"] + sinks + ["--render-log", "\(logs)/leader.log", "--sync-serve=\(lab.clientAddress):0",
                                                       GstplayProcess.fixture("h264-aac-10s.mp4")])
        try leader.start()
        defer { leader.send(signal: SIGTERM) }
        let serving = leader.waitForJSON(timeout: 30) { $0["event"] as? String == "sync-serving" }
        let port = try XCTUnwrap(serving?["clock_port"] as? Int, leader.stderr)
        let followers = (0..<2).map { index in
            lab.gstplayInRendererNamespace(["--json"] + sinks + ["--render-log", "\(logs)/f\(index).log", "--sync-to", "\(lab.clientAddress):\(port)"])
        }
        for follower in followers { try follower.start() }
        defer { for follower in followers { follower.send(signal: SIGTERM) } }
        for follower in followers {
            XCTAssertNotNil(follower.waitForJSON(timeout: 60) { $0["event"] as? String == "sync-locked" }, follower.stdout + follower.stderr)
        }
        // Let them play together a while (the clip is 10 s long; followers seek 1 s ahead to join).
        Thread.sleep(forTimeInterval: 3.5)
        for follower in followers {
            follower.send(signal: SIGTERM)
            _ = follower.waitForExit(timeout: 20)
        }
        leader.send(signal: SIGTERM)
        _ = leader.waitForExit(timeout: 20)

        let lead = videoRenders("\(logs)/leader.log")
        XCTAssertGreaterThan(lead.count, 30, "the leader rendered frames")
        for index in 0..<2 {
            let follower = videoRenders("\(logs)/f\(index).log")
            // Frames both rendered, skipping each follower's first half second (its join).
            let first = follower.keys.min() ?? 0
            let offsets = follower.compactMap { pts, realtime in
                pts >= first + 500_000_000 ? lead[pts].map { Double(realtime - $0) / 1e6 } : nil
            }.sorted { abs($0) < abs($1) }
            XCTAssertGreaterThan(offsets.count, 30, "follower \(index) rendered frames the leader rendered too")
            guard !offsets.isEmpty else { continue }
            let p90 = abs(offsets[offsets.count * 9 / 10])
            print("sync in namespaces: follower \(index): \(offsets.count) frames, |offset| p50 \(abs(offsets[offsets.count / 2])) ms, p90 \(p90) ms, max \(abs(offsets.last!)) ms;",
                  "load", (try? String(contentsOfFile: "/proc/loadavg")) ?? "")
            XCTAssertLessThanOrEqual(p90, 2.0, "follower \(index) renders within 2 ms of the leader (9 frames in 10)")
        }
    }
}
