import Backend
import Foundation
import TestSupport
import XCTest

/// The sync feature in one process, as an embedder turns it on: a leader player and a follower
/// player (fake sinks, `sync=true`) on 127.0.0.1. Judged by what the players report (the points
/// of their timelines on the shared clock), not by wall-clock timing.
final class SyncFeatureTests: XCTestCase {
    private func configuration() -> PlayerConfiguration {
        var configuration = PlayerConfiguration.fakeSinks()
        configuration.instantRateChange = false         // a sync group's rate changes are flushing seeks
        return configuration
    }

    func testAnEmbeddedFollowerLocksToAnEmbeddedLeaderAndPlaysOnItsTimeline() throws {
        let leaderFeature = try SyncFeature(settings: SyncSettings(role: .leader(endpoint: SyncEndpoint(host: "127.0.0.1", port: 0))))
        let port = try XCTUnwrap(leaderFeature.leaderPort)
        let leaderEvents = EventRecorder()
        var standard = StandardFeatures()
        standard.sync = leaderFeature
        let leader = Player(configuration: configuration(), standard: standard, delegate: leaderEvents)
        defer { leader.shutdown() }
        leader.load(TestMedia.path("h264-aac-10s.mp4"))
        leader.pause()                                  // it plays once the follower locked

        var followerStandard = StandardFeatures()
        followerStandard.sync = try SyncFeature(settings: SyncSettings(role: .follower(leader: SyncEndpoint(host: "127.0.0.1", port: port), clock: nil)))
        let followerEvents = EventRecorder()
        let follower = Player(configuration: configuration(), standard: followerStandard, delegate: followerEvents)
        defer { follower.shutdown() }

        let locked = followerEvents.waitForValue("sync-locked", timeout: 60) { event -> String? in
            if case .locked(let name, _, _)? = event.syncEvent { return name }
            return nil
        }
        XCTAssertEqual(locked, "127.0.0.1:\(port)")
        XCTAssertEqual(leader.syncStatus?.role, "leader")
        XCTAssertEqual(follower.syncStatus?.isFollower, true)
        XCTAssertEqual(follower.syncStatus?.transportRefusal, "following 127.0.0.1:\(port): transport commands go to the leader")
        XCTAssertNil(leader.syncStatus?.transportRefusal)
        leader.play()

        // Both timelines on one line once the follower plays (polled: the statuses are refreshed every 250 ms).
        var offset: Int64?
        for _ in 0..<100 {
            if let l = leader.syncStatus, let f = follower.syncStatus, let lc = l.clockTime, let lp = l.positionAtClock,
               let fc = f.clockTime, let fp = f.positionAtClock, f.session == l.session {
                offset = (fp - Int64(bitPattern: fc)) - (lp - Int64(bitPattern: lc))
                if abs(offset!) <= 20_000_000 { break }
            }
            usleep(100_000)
        }
        XCTAssertLessThanOrEqual(abs(offset ?? .max), 20_000_000, "the follower is not on the leader's timeline")
        XCTAssertEqual(follower.syncStatus?.session?.uri?.hasPrefix("/files/"), true, "a local file is served by the leader")
    }
}
