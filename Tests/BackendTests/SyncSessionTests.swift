import Backend
import XCTest

/// The sync session's wire form and the timing arithmetic (pure, no GStreamer).
final class SyncSessionTests: XCTestCase {
    private func session(state: SyncPlayState = .playing, rate: Double = 1) -> SyncSession {
        SyncSession(session: "abc", generation: 3, uri: "/files/x/a.mp4", state: state, rate: rate, baseTime: 10_000_000_000,
                    positionAtBase: 2_000_000_000, latency: 200_000_000, clockPort: 5800, playlistIndex: 1, itemID: 7)
    }

    func testSessionRoundTripsThroughJSON() throws {
        let original = session()
        XCTAssertEqual(SyncSession.decode(original.json), original)
        XCTAssertTrue(original.json.contains(#""base_time":10000000000"#), original.json)
        XCTAssertTrue(original.json.contains(#""position_at_base":2000000000"#), original.json)
        XCTAssertTrue(original.json.contains(#""clock_port":5800"#), original.json)
        var stopped = session(state: .stopped)
        stopped.uri = nil
        stopped.playlistIndex = nil
        XCTAssertEqual(SyncSession.decode(stopped.json), stopped)
    }

    func testDecodeRefusesWhatIsNotASession() {
        XCTAssertNil(SyncSession.decode("null"))
        XCTAssertNil(SyncSession.decode(#"{"version":1}"#))
        var badRate = session()
        badRate.rate = 0
        XCTAssertNil(SyncSession.decode(badRate.json))
        var future = session()
        future.version = 2
        XCTAssertNil(SyncSession.decode(future.json))
    }

    func testSamePlaybackIgnoresTheGenerationOnly() {
        var next = session()
        next.generation = 9
        XCTAssertTrue(session().samePlayback(as: next))
        next.baseTime += 1
        XCTAssertFalse(session().samePlayback(as: next))
    }

    func testPositionsMapToTheClockAndBack() {
        let s = session()
        XCTAssertEqual(SyncTiming.position(at: 11_000_000_000, in: s), 3_000_000_000)
        XCTAssertEqual(SyncTiming.clockTime(of: 3_000_000_000, in: s), 11_000_000_000)
        let fast = session(rate: 2)
        XCTAssertEqual(SyncTiming.position(at: 11_000_000_000, in: fast), 4_000_000_000)
        XCTAssertEqual(SyncTiming.clockTime(of: 4_000_000_000, in: fast), 11_000_000_000)
        XCTAssertEqual(SyncTiming.position(at: 99_000_000_000, in: session(state: .paused)), 2_000_000_000, "paused: the paused position")
    }

    func testAFollowerBaseTimeMakesItsSegmentPlayOnTheLeadersLine() {
        let s = session()
        // A follower that sought to 5 s: its running time 0 plays 5 s, which the leader plays at clock 13 s.
        let mapping = SegmentMapping(runningTime: 0, streamPosition: 5_000_000_000, rate: 1)
        XCTAssertEqual(SyncTiming.pipelineBase(for: mapping, in: s), 13_000_000_000)
        // After a pause and resume its segment is unchanged: running time 1 s plays 6 s.
        let later = SegmentMapping(runningTime: 1_000_000_000, streamPosition: 6_000_000_000, rate: 1)
        XCTAssertEqual(SyncTiming.pipelineBase(for: later, in: s), 13_000_000_000)
        XCTAssertEqual(mapping.position(atRunningTime: 1_500_000_000), 6_500_000_000)
    }

    func testALateJoinerSeeksToWhatTheLeaderPlaysWhenItWillBeReady() {
        let s = session()
        // At clock 20 s with 1 s to get ready: rendered at 21 s is what maps to 20.8 s (latency 0.2 s): 12.8 s.
        XCTAssertEqual(SyncTiming.joinPosition(now: 20_000_000_000, margin: 1_000_000_000, in: s), 12_800_000_000)
        // Before the base time: the session's start.
        XCTAssertEqual(SyncTiming.joinPosition(now: 1_000_000_000, margin: 1_000_000_000, in: s), 2_000_000_000)
        // A pipeline about to play 2 s at clock 10.05 s has 0.15 s (rendering at 10.2 s) minus a 0.1 s margin to spare.
        XCTAssertEqual(SyncTiming.lateness(of: 2_000_000_000, now: 10_050_000_000, margin: 100_000_000, in: s), -50_000_000)
        XCTAssertGreaterThan(SyncTiming.lateness(of: 2_000_000_000, now: 10_500_000_000, margin: 100_000_000, in: s), 0)
    }

    func testEndpointsParse() {
        XCTAssertEqual(SyncEndpoint.parse("10.0.0.2:5800"), SyncEndpoint(host: "10.0.0.2", port: 5800))
        XCTAssertEqual(SyncEndpoint.parse("[::1]:5800"), SyncEndpoint(host: "::1", port: 5800))
        XCTAssertEqual(SyncEndpoint.parse("[::1]:5800")?.description, "[::1]:5800")
        XCTAssertEqual(SyncEndpoint.parse("host", defaultPort: 5800), SyncEndpoint(host: "host", port: 5800))
        XCTAssertNil(SyncEndpoint.parse("host"))
        XCTAssertNil(SyncEndpoint.parse("host:0"))
        XCTAssertNil(SyncEndpoint.parse("host:70000"))
        XCTAssertNil(SyncEndpoint.parse("::1:5800"))
        XCTAssertNil(SyncEndpoint.parse(":5800"))
    }
}
