import StreamingQoE
import XCTest

/// The QoE bench's assembly of one played session from the server's segment log and
/// the player's position samples, on timelines worked out by hand: which fragments were played,
/// the stalls seen in the position, the buffer level, the startup time.
final class SessionTimelineTests: XCTestCase {
    /// 2 s fragments 0…n-1 at `kbps[i]`, fragment i fetched over [start, start + 1].
    private func fetches(_ kbps: [Double], starts: [Double]) -> [SegmentFetch] {
        zip(kbps.indices, zip(kbps, starts)).map { index, pair in
            SegmentFetch(sequence: index, kbps: pair.0, mediaSeconds: 2, start: pair.1, end: pair.1 + 1, complete: true)
        }
    }

    /// Position samples every 0.1 s from `from` to `to`, the position following `position(t)`.
    private func samples(from: Double, to: Double, _ position: (Double) -> Double) -> [PositionSample] {
        stride(from: from, through: to + 1e-9, by: 0.1).map { PositionSample(time: $0, position: position($0)) }
    }

    func testASmoothRunPlaysEveryStartedFragmentWithoutStalls() {
        let timeline = SessionTimeline(
            fetches: fetches([364, 364, 1037, 1037, 1037], starts: [0, 1, 2, 3, 4]),
            samples: samples(from: 1.5, to: 7.5) { max(0, $0 - 1.5) },
            loadTime: 0.2, playingTime: 1.5, endTime: 7.5)
        let session = timeline.session
        // The final position is 6.0: fragments 0, 1, 2 (media 0–6) were played; 3 starts at 6.0, not yet.
        XCTAssertEqual(session.fragments.map(\.kbps), [364, 364, 1037])
        XCTAssertEqual(session.stalls, [])
        XCTAssertEqual(session.startupSeconds ?? -1, 1.3, accuracy: 1e-9)
    }

    func testAFrozenPositionIsAStallAndShortJitterIsNot() {
        // Plays 2…5 s, frozen 5…6.5 s (position 3.0), plays again; one sample stamped 50 ms late at 7 s.
        var points = samples(from: 2, to: 5) { $0 - 2 }
        points += samples(from: 5.1, to: 6.5) { _ in 3 }
        points += samples(from: 6.6, to: 9) { 3 + ($0 - 6.5) }
        // A sample stamped late: taken at 7.0 (position 3.5), stamped 7.05.
        points = points.map { abs($0.time - 7) < 0.01 ? PositionSample(time: 7.05, position: 3.5) : $0 }
        let timeline = SessionTimeline(fetches: fetches([364, 364, 364, 364], starts: [0, 1, 2, 6]),
                                       samples: points, loadTime: 0, playingTime: 2, endTime: 9)
        let session = timeline.session
        guard session.stalls.count == 1 else { return XCTFail("stalls: \(session.stalls)") }
        XCTAssertEqual(session.stalls[0].start, 5, accuracy: 0.11)
        XCTAssertEqual(session.stalls[0].seconds, 1.5, accuracy: 0.11)
        XCTAssertEqual(QoEScore(session).stallSeconds, 1.5, accuracy: 0.11)
    }

    func testAStallStillGoingAtTheEndCountsUpToTheEndEvenWithoutSamples() {
        // The Backend sends no position while held for buffering: playing 1…5 s, then silence until the end at 8 s.
        let timeline = SessionTimeline(fetches: fetches([364, 364, 364], starts: [0, 1, 2]),
                                       samples: samples(from: 1, to: 5) { $0 - 1 }, loadTime: 0, playingTime: 1, endTime: 8)
        let session = timeline.session
        guard session.stalls.count == 1 else { return XCTFail("stalls: \(session.stalls)") }
        XCTAssertEqual(session.stalls[0].start, 5, accuracy: 0.11)
        XCTAssertEqual(session.stalls[0].seconds, 3, accuracy: 0.11)
    }

    func testTheBufferIsTheContiguousDownloadedMediaAheadOfThePosition() {
        // Fragments 0, 1 done at 1 and 2 s; fragment 2 fetched 5–6 s.
        let timeline = SessionTimeline(fetches: fetches([364, 364, 364], starts: [0, 1, 5]),
                                       samples: samples(from: 1, to: 7) { max(0, min($0 - 1, 4)) },
                                       loadTime: 0, playingTime: 1, endTime: 7)
        XCTAssertEqual(timeline.bufferSeconds(at: 1.0), 2, accuracy: 1e-9)   // 0–2 s downloaded, position 0
        XCTAssertEqual(timeline.bufferSeconds(at: 2.5), 2.5, accuracy: 0.11) // 0–4 s downloaded, position 1.5
        XCTAssertEqual(timeline.bufferSeconds(at: 5.5), 0, accuracy: 0.11)   // position 4, fragment 2 still coming
        XCTAssertEqual(timeline.bufferSeconds(at: 6.5), 2, accuracy: 0.11)   // 0–6 s downloaded
        XCTAssertEqual(timeline.bufferSeries.count, timeline.samples.count)
        XCTAssertEqual(timeline.requestSeries.map(\.kbps), [364, 364, 364])
        XCTAssertEqual(timeline.requestSeries.map(\.time), [0, 1, 5])
    }

    func testAFragmentFetchedTwiceCountsItsLastCompleteDownloadAndAnUnfinishedOneIsSkipped() {
        var list = fetches([364, 364], starts: [0, 1])
        list.append(SegmentFetch(sequence: 1, kbps: 2503, mediaSeconds: 2, start: 1.5, end: 2.5, complete: true))
        list.append(SegmentFetch(sequence: 2, kbps: 2503, mediaSeconds: 2, start: 2.5, end: 9, complete: false))
        let timeline = SessionTimeline(fetches: list, samples: samples(from: 1, to: 6) { $0 - 1 },
                                       loadTime: 0, playingTime: 1, endTime: 6)
        XCTAssertEqual(timeline.session.fragments.map(\.kbps), [364, 2503])
    }

    func testNeverPlayingGivesNoStartupAndNoFragments() {
        let timeline = SessionTimeline(fetches: [], samples: [], loadTime: 0, playingTime: nil, endTime: 10)
        XCTAssertNil(timeline.session.startupSeconds)
        XCTAssertEqual(timeline.session.fragments, [])
        XCTAssertEqual(timeline.session.stalls, [])
    }
}
