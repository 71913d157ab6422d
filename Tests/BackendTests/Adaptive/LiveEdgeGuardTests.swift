@testable import BackendAdaptive
import Backend
import XCTest

/// The live-edge rule as a pure value (``LiveEdgeGuard``): the latency to the edge of the
/// seekable window, the segment duration learnt from the window's steps, the stated bound and
/// when a catch-up seek is due. No pipeline.
final class LiveEdgeGuardTests: XCTestCase {
    func testLatencyIsTheWindowEndMinusThePositionNeverNegative() {
        var edge = LiveEdgeGuard()
        XCTAssertEqual(edge.update(windowEnd: 6, position: 4.4, now: 0, startupBuffer: 2, canCatchUp: true), .none)
        XCTAssertEqual(edge.latency ?? -1, 1.6, accuracy: 1e-9)
        _ = edge.update(windowEnd: 6, position: 6.3, now: 0.25, startupBuffer: 2, canCatchUp: true)
        XCTAssertEqual(edge.latency, 0, "a window end read before the playlist's refresh is not a negative latency")
    }

    func testTheSegmentDurationIsTheSmallestStepOfTheWindowEnd() {
        var edge = LiveEdgeGuard()
        _ = edge.update(windowEnd: 6, position: 4, now: 0, startupBuffer: 2, canCatchUp: true)
        XCTAssertNil(edge.segmentSeconds, "unknown before the window moved")
        XCTAssertNil(edge.bound)
        _ = edge.update(windowEnd: 10, position: 5, now: 2, startupBuffer: 2, canCatchUp: true)  // a missed refresh: two segments
        XCTAssertEqual(edge.segmentSeconds, 4)
        _ = edge.update(windowEnd: 12, position: 7, now: 4, startupBuffer: 2, canCatchUp: true)
        XCTAssertEqual(edge.segmentSeconds, 2)
        _ = edge.update(windowEnd: 12.1, position: 7, now: 4.2, startupBuffer: 2, canCatchUp: true)
        XCTAssertEqual(edge.segmentSeconds, 2, "steps under \(LiveEdgeGuard.smallestSegment) s are not segments")
        XCTAssertEqual(edge.bound, 3 * 2 + 2, "three segments plus the startup buffer")
        XCTAssertEqual(LiveEdgeGuard.catchUpLatency(segmentSeconds: 2, startupBuffer: 2), 6, "one segment under the bound")
    }

    func testACatchUpIsDueAboveTheThresholdOnceThenWaitsForTheCooldown() {
        var edge = LiveEdgeGuard()
        _ = edge.update(windowEnd: 6, position: 4, now: 0, startupBuffer: 2, canCatchUp: true)
        _ = edge.update(windowEnd: 8, position: 5, now: 2, startupBuffer: 2, canCatchUp: true)
        // Stalled at 5 while the window moves on: 5 s, then 7 s behind (threshold 6).
        XCTAssertEqual(edge.update(windowEnd: 10, position: 5, now: 4, startupBuffer: 2, canCatchUp: true), .none)
        XCTAssertEqual(edge.update(windowEnd: 12, position: 5, now: 6, startupBuffer: 2, canCatchUp: false), .none, "not while it may not")
        XCTAssertEqual(edge.update(windowEnd: 12, position: 5, now: 6.25, startupBuffer: 2, canCatchUp: true), .catchUp(latency: 7.25))
        XCTAssertEqual(edge.catchUps, 1)
        // The seek has not landed yet: no second one within the cooldown (two segments).
        XCTAssertEqual(edge.update(windowEnd: 14, position: 5, now: 8, startupBuffer: 2, canCatchUp: true), .none)
        // The window end was 14 since 8: at 10.5 the edge is at least 16.5, whatever the late refresh says.
        XCTAssertEqual(edge.update(windowEnd: 16, position: 5, now: 10.5, startupBuffer: 2, canCatchUp: true), .catchUp(latency: 11.5))
        XCTAssertEqual(edge.catchUps, 2)
    }

    /// A refresh stuck behind a slow download (or an outage) leaves the window where it was;
    /// the edge still moves on with the wall time.
    func testTheEdgeMovesOnWithTheWallTimeWhileTheWindowDoesNot() {
        var edge = LiveEdgeGuard()
        _ = edge.update(windowEnd: 6, position: 4, now: 0, startupBuffer: 2, canCatchUp: true)
        _ = edge.update(windowEnd: 8, position: 5, now: 2, startupBuffer: 2, canCatchUp: true)
        XCTAssertEqual(edge.latency, 3)
        _ = edge.update(windowEnd: 8, position: 5, now: 5, startupBuffer: 2, canCatchUp: true)
        XCTAssertEqual(edge.latency, 6, "stalled at 5 for 3 s with no refresh")
        _ = edge.update(windowEnd: 8, position: 7.5, now: 5.5, startupBuffer: 2, canCatchUp: true)
        XCTAssertEqual(edge.latency, 4, "playing again")
    }

    /// Above the start variant the catch-up first asks for it and seeks once the downloads are on it.
    func testACatchUpWaitsForTheStartVariant() {
        var edge = LiveEdgeGuard()
        _ = edge.update(windowEnd: 6, position: 4, now: 0, startupBuffer: 2, canCatchUp: true)
        _ = edge.update(windowEnd: 8, position: 6, now: 2, startupBuffer: 2, canCatchUp: true)
        XCTAssertEqual(edge.update(windowEnd: 12, position: 5, now: 6, startupBuffer: 2, canCatchUp: true, onStartVariant: false), .restart)
        XCTAssertTrue(edge.pending)
        XCTAssertEqual(edge.update(windowEnd: 14, position: 5, now: 8, startupBuffer: 2, canCatchUp: true, onStartVariant: false), .none)
        XCTAssertEqual(edge.catchUps, 0)
        XCTAssertEqual(edge.update(windowEnd: 14, position: 5, now: 9, startupBuffer: 2, canCatchUp: true, onStartVariant: true), .catchUp(latency: 10))
        XCTAssertEqual(edge.catchUps, 1)
        XCTAssertFalse(edge.pending)
    }

    /// A user who seeks back in the window (or pauses) keeps the shift: no catch-up until the
    /// latency is back under the threshold; the guard's own seek is not the user's.
    func testAUserTimeShiftIsKeptUntilBackNearTheEdge() {
        var edge = LiveEdgeGuard()
        _ = edge.update(windowEnd: 6, position: 4, now: 0, startupBuffer: 2, canCatchUp: true)
        _ = edge.update(windowEnd: 8, position: 6, now: 2, startupBuffer: 2, canCatchUp: true)
        edge.seekObserved(now: 2.5)  // not asked for by the guard: the user's
        XCTAssertEqual(edge.update(windowEnd: 10, position: 1, now: 4, startupBuffer: 2, canCatchUp: true), .none)
        XCTAssertTrue(edge.timeShifted)
        XCTAssertEqual(edge.update(windowEnd: 10, position: 5, now: 4.25, startupBuffer: 2, canCatchUp: true), .none, "5.25 s: under 6")
        XCTAssertFalse(edge.timeShifted, "back near the edge")
        // A stall from here on is caught up; the seek that follows is the guard's own.
        XCTAssertEqual(edge.update(windowEnd: 12, position: 5, now: 6, startupBuffer: 2, canCatchUp: true), .catchUp(latency: 7))
        edge.seekObserved(now: 6.25)
        XCTAssertFalse(edge.timeShifted)
        edge.userTimeShifted()
        XCTAssertTrue(edge.timeShifted)
    }

    func testNoCatchUpBeforeTheSegmentDurationIsKnown() {
        var edge = LiveEdgeGuard()
        XCTAssertEqual(edge.update(windowEnd: 30, position: 5, now: 0, startupBuffer: 2, canCatchUp: true), .none)
        XCTAssertEqual(edge.latency, 25)
    }

    /// After an outage the first refresh can bring a playlist made before it (the request was
    /// sent before the link went down): a window end that moved one segment while the edge moved
    /// on by the whole outage. The latency keeps counting from the end seen earlier (seen in
    /// `LiveEdgeABRTests`: 0.00 for 5 s while stalled, then 9.74 s).
    func testAWindowEndReadStaleAfterAnOutageDoesNotHideTheLatency() {
        var edge = LiveEdgeGuard()
        _ = edge.update(windowEnd: 8, position: 4, now: 0, startupBuffer: 2, canCatchUp: true)
        _ = edge.update(windowEnd: 10, position: 6, now: 2, startupBuffer: 2, canCatchUp: true)
        _ = edge.update(windowEnd: 10, position: 12, now: 8, startupBuffer: 2, canCatchUp: true)  // played the buffer out
        XCTAssertEqual(edge.latency ?? -1, 4, accuracy: 1e-9)
        _ = edge.update(windowEnd: 10, position: 12, now: 9.5, startupBuffer: 2, canCatchUp: true)  // stalled
        XCTAssertEqual(edge.latency ?? -1, 5.5, accuracy: 1e-9)
        XCTAssertEqual(edge.update(windowEnd: 12, position: 12, now: 10.25, startupBuffer: 2, canCatchUp: true), .restart,
                       "no seek to a window end 6 s behind the edge (it would land behind it again); the ABR waits on the start variant")
        XCTAssertTrue(edge.pending)
        XCTAssertEqual(edge.latency ?? -1, 6.25, accuracy: 1e-9, "a stale refresh is no way back to the edge")
        XCTAssertEqual(edge.update(windowEnd: 18, position: 12, now: 10.5, startupBuffer: 2, canCatchUp: true), .catchUp(latency: 6.5),
                       "a fresh window: the seek reaches the edge")
    }

    /// 1.22's `hlsdemux` answers the seeking query from the media playlist of the variant it
    /// downloads; after a switch that playlist's timeline starts again at 0 while the position
    /// goes on in the old one (seen: window 16…22, then 0…6 with the position at 22.3). The edge
    /// stays where it was; a seek lands in the window's timeline and the position follows it.
    func testAVariantSwitchThatRestartsTheWindowsTimelineKeepsTheLatency() {
        var edge = LiveEdgeGuard()
        _ = edge.update(windowEnd: 20, position: 18, now: 0, startupBuffer: 2, canCatchUp: true)
        _ = edge.update(windowEnd: 22, position: 20, now: 2, startupBuffer: 2, canCatchUp: true)
        _ = edge.update(windowEnd: 6, position: 20.5, now: 2.5, startupBuffer: 2, canCatchUp: true)  // the switch
        XCTAssertEqual(edge.latency ?? -1, 2, accuracy: 1e-9, "the window's new timeline is not a jump to the edge")
        XCTAssertEqual(edge.segmentSeconds, 2)
        _ = edge.update(windowEnd: 8, position: 20.5, now: 4.5, startupBuffer: 2, canCatchUp: true)  // stalled
        XCTAssertEqual(edge.latency ?? -1, 4, accuracy: 1e-9)
        XCTAssertEqual(edge.segmentSeconds, 2)
        XCTAssertEqual(edge.update(windowEnd: 10, position: 20.5, now: 6.75, startupBuffer: 2, canCatchUp: true), .catchUp(latency: 6.25))
        // The catch-up seek (to the window end, 10) landed: the position is in the window's timeline.
        _ = edge.update(windowEnd: 10, position: 10, now: 7.5, startupBuffer: 2, canCatchUp: true)
        XCTAssertEqual(edge.latency ?? -1, 1, accuracy: 1e-9)
        _ = edge.update(windowEnd: 12, position: 11, now: 8.5, startupBuffer: 2, canCatchUp: true)
        XCTAssertEqual(edge.latency ?? -1, 1, accuracy: 1e-9)
    }

    /// A seek made while the demuxer switched back to a variant it had before lands in that
    /// variant's playlist's timeline (each keeps its own): the edge is carried over into it.
    func testASeekAcrossAVariantSwitchLandsInTheTimelineOfTheWindowAfterIt() {
        var edge = LiveEdgeGuard()
        _ = edge.update(windowEnd: 20, position: 18, now: 0, startupBuffer: 2, canCatchUp: true)
        _ = edge.update(windowEnd: 22, position: 20, now: 2, startupBuffer: 2, canCatchUp: true)
        _ = edge.update(windowEnd: 6, position: 20.5, now: 2.5, startupBuffer: 2, canCatchUp: true)  // up: a new timeline
        _ = edge.update(windowEnd: 8, position: 20.5, now: 4.5, startupBuffer: 2, canCatchUp: true)
        XCTAssertEqual(edge.latency ?? -1, 4, accuracy: 1e-9)
        edge.seekObserved(now: 4.6)  // made after the demuxer went back to the first variant: its window ends at 24
        _ = edge.update(windowEnd: 24, position: 24, now: 5, startupBuffer: 2, canCatchUp: true)
        XCTAssertEqual(edge.latency ?? -1, 1, accuracy: 1e-9, "the edge (25 in the first timeline) carried over")
        _ = edge.update(windowEnd: 24, position: 24, now: 6, startupBuffer: 2, canCatchUp: true)  // stalled
        XCTAssertEqual(edge.latency ?? -1, 2, accuracy: 1e-9)
    }

    /// The test ladder's segments are 2 s but its last one is 1.93 s (the live playlist loops
    /// over it): the segment is the playlist's longest step, not the shortest, and a missed
    /// refresh's double step does not count (seen: bound 7.8 s instead of 8 s, and the outage
    /// case failing at 8.81 s over it).
    func testTheSegmentDurationIgnoresAShorterLastSegmentAndDoubleSteps() {
        var edge = LiveEdgeGuard()
        _ = edge.update(windowEnd: 6, position: 4, now: 0, startupBuffer: 2, canCatchUp: true)
        _ = edge.update(windowEnd: 8, position: 6, now: 2, startupBuffer: 2, canCatchUp: true)
        _ = edge.update(windowEnd: 9.933, position: 8, now: 4, startupBuffer: 2, canCatchUp: true)
        XCTAssertEqual(edge.segmentSeconds ?? -1, 2, accuracy: 1e-9, "a 1.93 s segment is not the segment duration")
        _ = edge.update(windowEnd: 13.933, position: 10, now: 6, startupBuffer: 2, canCatchUp: true)
        XCTAssertEqual(edge.segmentSeconds ?? -1, 2, accuracy: 1e-9, "two segments in one refresh")
        XCTAssertEqual(edge.bound ?? -1, 8, accuracy: 1e-9)
    }

    /// No window read this time (the demuxer did not answer the seeking query): the latency is
    /// measured from the edge moved on with the wall time, not left at its last value.
    func testWithoutAWindowTheLatencyStillCountsTheWallTime() {
        var edge = LiveEdgeGuard()
        _ = edge.update(windowEnd: 6, position: 4, now: 0, startupBuffer: 2, canCatchUp: true)
        _ = edge.update(windowEnd: 8, position: 6, now: 2, startupBuffer: 2, canCatchUp: true)
        XCTAssertEqual(edge.update(windowEnd: nil, position: 6, now: 7, startupBuffer: 2, canCatchUp: true), .none,
                       "no catch-up without a window to seek in")
        XCTAssertEqual(edge.latency ?? -1, 7, accuracy: 1e-9, "stalled at 6 for 5 s")
        XCTAssertEqual(edge.update(windowEnd: 14, position: 6, now: 8, startupBuffer: 2, canCatchUp: true), .catchUp(latency: 8))
    }

    /// While the catch-up seek is in flight the position is the old one: the latency counts
    /// from the seek's target (where playback resumes), moving on with the wall time until it
    /// lands, then from the landed position until a window is read after it.
    func testWhileACatchUpSeekIsInFlightTheLatencyCountsFromItsTarget() {
        var edge = LiveEdgeGuard()
        _ = edge.update(windowEnd: 6, position: 4, now: 0, startupBuffer: 2, canCatchUp: true)
        _ = edge.update(windowEnd: 8, position: 6, now: 2, startupBuffer: 2, canCatchUp: true)
        XCTAssertEqual(edge.update(windowEnd: 14, position: 6, now: 8, startupBuffer: 2, canCatchUp: true), .catchUp(latency: 8))
        XCTAssertNil(edge.latencyWhileSeeking(now: 8.1), "no target known before the core sent the seek")
        edge.seekIssued(target: 14)
        edge.seekObserved(now: 8.25)
        XCTAssertEqual(edge.latencyWhileSeeking(now: 9.5) ?? -1, 1.5, accuracy: 1e-9, "1.5 s in flight")
        XCTAssertFalse(edge.timeShifted, "the guard's own seek")
        XCTAssertEqual(edge.latencyWhileSeeking(now: 10, position: 14.25) ?? -1, 1.75, accuracy: 1e-9, "landed, playing")
        _ = edge.update(windowEnd: 16, position: 14.5, now: 10.25, startupBuffer: 2, canCatchUp: true)
        XCTAssertEqual(edge.latency ?? -1, 1.75, accuracy: 1e-9)
    }
}
