@testable import BackendCore
import Backend
import CGStreamer
import Foundation
import Synchronization
import TestSupport
import XCTest

/// Rate, volume, statistics, autoplay/stop states and time observers on real pipelines.
final class RateVolumeStatisticsTests: XCTestCase {
    func testRateTwoPlaysAFourSecondClipInAboutTwoSeconds() throws {
        let recorder = EventRecorder()
        let player = Player.forTesting(recorder)
        defer { player.shutdown() }
        try player.setRate(2.0)
        player.load(TestMedia.vp8)
        recorder.waitFor("playing") { recorder.reachedState(.playing)($0) }
        let start = ProcessInfo.processInfo.systemUptime
        recorder.waitFor("EOS") { $0.contains(where: \.isEndOfStream) }
        let elapsed = ProcessInfo.processInfo.systemUptime - start
        // Real-time sinks cannot play 4 s faster than 2 s; at 1× it would take 4 s.
        XCTAssertGreaterThan(elapsed, 1.8, "4 s at 2× took \(elapsed) s")
        // Timed from `playing`, on the pipeline's clock: load slows the decoding, not the clock, so
        // anything clearly under the 4 s of 1× shows the rate applied.
        XCTAssertLessThan(elapsed, 3.6, "4 s at 2× took \(elapsed) s")
        XCTAssertEqual(player.snapshot.rate, 2.0)
    }

    func testRateChangeDuringPlaybackSpeedsUpThePlayhead() throws {
        let recorder = EventRecorder()
        let player = Player.forTesting(recorder)
        defer { player.shutdown() }
        player.load(TestMedia.h264)
        recorder.waitFor("playing") { recorder.reachedState(.playing)($0) }
        try player.setRate(2.0)
        recorder.waitFor("rate event") { $0.contains(.rateChanged(2.0)) }
        XCTAssertEqual(playheadSpeed(recorder, ticks: 5), 2.0, accuracy: 0.5, "playhead speed")
        // The rate survives a seek.
        let mark = recorder.count
        player.seek(to: MediaTime(seconds: 2))
        _ = recorder.waitForValue("seek done", after: mark) { $0.seekDone }
        XCTAssertEqual(playheadSpeed(recorder, ticks: 3), 2.0, accuracy: 0.5, "rate kept after a seek")
    }

    /// Media seconds per wall second between the first and the last of the next `ticks` + 1
    /// position ticks (the first one after a flush is skipped). 1× and 2× stay apart under load.
    private func playheadSpeed(_ recorder: EventRecorder, ticks: Int) -> Double {
        let mark = recorder.count
        recorder.waitFor("\(ticks + 2) ticks") { $0.dropFirst(mark).compactMap(\.position).count >= ticks + 2 }
        let window = recorder.all.dropFirst(mark).filter { $0.event.position != nil }.dropFirst().prefix(ticks + 1)
        guard let first = window.first, let last = window.last, let p0 = first.event.position, let p1 = last.event.position,
              last.at > first.at else { return 0 }
        return (p1 - p0).seconds / (last.at - first.at)
    }

    func testReversePlaybackRunsBackwardsToTheStart() throws {
        let recorder = EventRecorder()
        let player = Player.forTesting(recorder) { $0.autoplay = false }
        defer { player.shutdown() }
        player.load(TestMedia.h264)
        recorder.waitFor("ready") { recorder.reachedState(.ready)($0) }
        player.seek(to: MediaTime(seconds: 3))
        _ = recorder.waitForValue("seek done") { $0.seekDone }
        try player.setRate(-1.0)
        player.play()
        let mark = recorder.count
        recorder.waitFor("EOS at the start", timeout: 10) { $0.contains(where: \.isEndOfStream) }
        let ticks = recorder.events.dropFirst(mark).compactMap(\.position).filter { $0 > .zero }
        XCTAssertGreaterThanOrEqual(ticks.count, 4, "ticks while playing backwards")
        XCTAssertEqual(ticks, ticks.sorted(by: >), "positions decrease")
        guard case .endOfStream(let final)? = recorder.events.last(where: \.isEndOfStream) else { return XCTFail("no EOS") }
        XCTAssertLessThan(final.seconds, 0.5)
    }

    func testRatesOutsideTheRangeAreRejectedAndChangeNothing() {
        let recorder = EventRecorder()
        let player = Player.forTesting(recorder) { $0.rateRange = 0.5...2.0 }
        defer { player.shutdown() }
        for bad in [3.0, 0.25, 0.0, -1.0, .nan, .infinity] {
            XCTAssertThrowsError(try player.setRate(bad), "\(bad)") { error in
                XCTAssertEqual((error as? PlayerError)?.kind, .invalidArgument)
                XCTAssertTrue((error as? PlayerError)?.message.contains("0.5") ?? false)
            }
        }
        XCTAssertNoThrow(try player.setRate(1.5))
        recorder.waitFor("rate event") { $0.contains(.rateChanged(1.5)) }
        XCTAssertEqual(recorder.events.filter { if case .rateChanged = $0 { return true } else { return false } }.count, 1)
    }

    func testVolumeAndMuteEventsAndSnapshot() {
        let recorder = EventRecorder()
        let player = Player.forTesting(recorder)
        defer { player.shutdown() }
        player.setVolume(0.5)
        player.setMuted(true)
        player.setVolume(-3) // clamped
        recorder.waitFor("three volume events") { events in
            events.filter { if case .volumeChanged = $0 { return true } else { return false } }.count == 3
        }
        XCTAssertEqual(recorder.events.filter { if case .volumeChanged = $0 { return true } else { return false } },
                       [.volumeChanged(volume: 0.5, muted: false), .volumeChanged(volume: 0.5, muted: true), .volumeChanged(volume: 0, muted: true)])
        XCTAssertEqual(player.snapshot.volume, 0)
        XCTAssertTrue(player.snapshot.muted)
    }

    func testStatisticsCountRenderedFramesCodecsAndBitrate() {
        let recorder = EventRecorder()
        let player = Player.forTesting(recorder) { $0.statisticsInterval = .milliseconds(200) }
        defer { player.shutdown() }
        player.load(TestMedia.h264)
        recorder.waitFor("playing") { recorder.reachedState(.playing)($0) }
        var mark = recorder.count
        recorder.waitFor("two ticks") { $0.dropFirst(mark).compactMap(\.position).count >= 2 }
        let first = player.refreshStatistics()
        mark = recorder.count
        recorder.waitFor("four more ticks") { $0.dropFirst(mark).compactMap(\.position).count >= 4 }
        let second = player.refreshStatistics()
        XCTAssertGreaterThan(second.renderedFrames, first.renderedFrames)
        // Frames per second of media played in between (the clip is 30 fps), not per wall second.
        let played = ((second.position ?? .zero) - (first.position ?? .zero)).seconds
        XCTAssertGreaterThan(played, 0.5)
        XCTAssertEqual(Double(second.renderedFrames - first.renderedFrames) / played, 30, accuracy: 8, "≈30 fps over \(played) s")
        XCTAssertTrue(second.videoCodec?.contains("H.264") ?? false, second.videoCodec ?? "nil")
        XCTAssertNotNil(second.audioCodec)
        XCTAssertNotNil(second.averageBitrate)
        XCTAssertEqual(second.videoSize?.width, 320)
        recorder.waitFor("a periodic statistics event") { events in
            events.contains { if case .statistics(let s) = $0 { return s.renderedFrames > 0 } else { return false } }
        }
    }

    /// A new load starts the statistics again at once: `Player.statistics` (what a status line
    /// reads) shows none of the previous item's values, before the new item prerolls.
    func testANewLoadLeavesNoStatisticsOfThePreviousItem() async {
        let recorder = EventRecorder()
        let player = Player.forTesting(recorder) { $0.statisticsInterval = .milliseconds(200) }
        defer { player.shutdown() }
        player.load(TestMedia.h264)
        recorder.waitFor("statistics of the video") { events in
            events.contains { if case .statistics(let s) = $0 { return s.videoSize?.width == 320 } else { return false } }
        }
        XCTAssertEqual(player.statistics.videoSize?.width, 320)
        player.load(TestMedia.audioOnly)
        _ = await player.currentQueue()                  // the load ran on the loop thread
        let after = player.statistics
        XCTAssertNil(after.videoSize, "the previous item's size: \(after)")
        XCTAssertNil(after.videoCodec, "the previous item's codec: \(after)")
    }

    func testLateFramesAreCountedAsDropped() {
        let recorder = EventRecorder()
        let player = Player.forTesting(recorder) {
            // 60 ms of work per 33 ms frame: frames arrive late and the sink drops them.
            $0.videoSink = .description("identity sleep-time=60000 ! fakesink sync=true max-lateness=5000000 qos=true")
        }
        defer { player.shutdown() }
        player.load(TestMedia.vp8)
        recorder.waitFor("playing") { recorder.reachedState(.playing)($0) }
        XCTAssertTrue(eventually(timeout: .seconds(10)) { player.refreshStatistics().droppedFrames > 0 }, "frames dropped")
        let stats = player.refreshStatistics()
        XCTAssertGreaterThan(stats.droppedFrames, 0)
        XCTAssertGreaterThan(stats.renderedFrames, 0)
    }

    func testWithoutAutoplayTheStateWaitsInReady() {
        let recorder = EventRecorder()
        let player = Player.forTesting(recorder) { $0.autoplay = false }
        defer { player.shutdown() }
        player.load(TestMedia.vp8)
        recorder.waitFor("ready") { recorder.reachedState(.ready)($0) }
        // Autoplay would have asked for PLAYING while handling preroll: after a round trip through
        // the loop, the playbin is still PAUSED with nothing pending.
        var current = GST_STATE_VOID_PENDING, pending = GST_STATE_VOID_PENDING
        player.withEngine { engine in
            if let playbin = engine.pipeline?.element { gst_element_get_state(playbin, &current, &pending, 0) }
        }
        XCTAssertEqual(current, GST_STATE_PAUSED)
        XCTAssertEqual(pending, GST_STATE_VOID_PENDING)
        XCTAssertEqual(player.state, .ready)
        player.pause()
        recorder.waitFor("paused") { recorder.reachedState(.paused)($0) }
        player.play()
        recorder.waitFor("playing") { recorder.reachedState(.playing)($0) }
        player.stop()
        recorder.waitFor("idle") { $0.last == .stateChanged(from: .stopping, to: .idle) }
        player.play() // reloads the last URI
        recorder.waitFor("EOS") { $0.contains(where: \.isEndOfStream) }
        XCTAssertEqual(recorder.states(), [.opening, .ready, .paused, .playing, .stopping, .idle, .opening, .ready, .playing, .ended], "\(recorder.events.filter { if case .position = $0 { return false } else { return true } })")
    }

    func testBoundaryObserversFireOnceEachAtQuarterHalfAndThreeQuarters() {
        let recorder = EventRecorder()
        let fired = Mutex<[(MediaTime, TimeInterval)]>([])
        let player = Player.forTesting(recorder) { $0.autoplay = false }
        defer { player.shutdown() }
        let times = [1.0, 2.0, 3.0].map { MediaTime(seconds: $0) } // 25/50/75 % of 4 s
        player.addBoundaryTimeObserver(times: times) { time in
            fired.withLock { $0.append((time, ProcessInfo.processInfo.systemUptime)) }
        }
        player.load(TestMedia.vp8)
        recorder.waitFor("ready") { recorder.reachedState(.ready)($0) }
        let start = ProcessInfo.processInfo.systemUptime
        player.play()
        recorder.waitFor("EOS") { $0.contains(where: \.isEndOfStream) }
        let result = fired.withLock { $0 }
        XCTAssertEqual(result.map(\.0), times)
        // Real-time play cannot reach a boundary early; lateness under load only shifts all of them.
        for (time, at) in result {
            XCTAssertGreaterThan(at - start, time.seconds - 0.1, "fired at wall \(at - start) for \(time)")
        }
        for (earlier, later) in zip(result, result.dropFirst()) {
            XCTAssertGreaterThan(later.1 - earlier.1, 0.8, "boundaries 1 s of media apart fire ≈1 s apart")
        }
    }

    func testBoundaryJumpedOverBySeekDoesNotFire() {
        let recorder = EventRecorder()
        let fired = Mutex<[MediaTime]>([])
        let player = Player.forTesting(recorder) { $0.autoplay = false }
        defer { player.shutdown() }
        player.addBoundaryTimeObserver(times: [1, 2, 3].map { MediaTime(seconds: $0) }) { time in fired.withLock { $0.append(time) } }
        player.load(TestMedia.vp8)
        recorder.waitFor("ready") { recorder.reachedState(.ready)($0) }
        player.seek(to: MediaTime(seconds: 2.5))
        _ = recorder.waitForValue("seek done") { $0.seekDone }
        player.play()
        recorder.waitFor("EOS") { $0.contains(where: \.isEndOfStream) }
        XCTAssertEqual(fired.withLock { $0 }, [MediaTime(seconds: 3)])
    }

    func testPeriodicObserverFiresAtItsOwnIntervalAndCanBeRemoved() {
        let recorder = EventRecorder()
        let count = Atomic<Int>(0)
        let player = Player.forTesting(recorder)
        defer { player.shutdown() }
        let token = player.addPeriodicTimeObserver(interval: .milliseconds(100)) { _ in count.add(1, ordering: .relaxed) }
        player.load(TestMedia.h264)
        recorder.waitFor("playing") { recorder.reachedState(.playing)($0) }
        // Ticks (every 250 ms) are the clock: over 4 tick intervals ≈ 10 calls at 100 ms.
        var mark = recorder.count
        recorder.waitFor("a tick") { $0.dropFirst(mark).compactMap(\.position).count >= 1 }
        let before = count.load(ordering: .relaxed)
        mark = recorder.count
        recorder.waitFor("four ticks") { $0.dropFirst(mark).compactMap(\.position).count >= 4 }
        let during = count.load(ordering: .relaxed) - before
        XCTAssertTrue((6...14).contains(during), "≈10 calls in 1 s at 100 ms, got \(during)")
        player.removeTimeObserver(token)
        _ = player.refreshStatistics() // a round trip through the loop: the removal has run
        let after = count.load(ordering: .relaxed)
        mark = recorder.count
        recorder.waitFor("two ticks after removal") { $0.dropFirst(mark).compactMap(\.position).count >= 2 }
        XCTAssertEqual(count.load(ordering: .relaxed), after, "no calls after removal")
    }

    /// Removal is at once: calls already queued on the observer's queue but not started are dropped.
    func testRemovedObserverIsNotCalledFromItsQueueAfterwards() {
        let recorder = EventRecorder()
        let player = Player.forTesting(recorder)
        defer { player.shutdown() }
        let queue = DispatchQueue(label: "observer")
        let calls = Atomic<Int>(0)
        let token = player.addPeriodicTimeObserver(interval: .milliseconds(20), queue: queue) { _ in calls.add(1, ordering: .relaxed) }
        player.load(TestMedia.h264)
        recorder.waitFor("playing") { recorder.reachedState(.playing)($0) }
        let gate = DispatchSemaphore(value: 0)
        queue.async { gate.wait() } // holds the queue: the calls pile up behind it
        let mark = recorder.count
        recorder.waitFor("two ticks") { $0.dropFirst(mark).compactMap(\.position).count >= 2 }
        let before = calls.load(ordering: .relaxed)
        player.removeTimeObserver(token)
        gate.signal()
        queue.sync {} // every call queued so far has run or been dropped
        XCTAssertEqual(calls.load(ordering: .relaxed), before, "no call started after the removal")
    }

    func testBoundaryCrossingRule() {
        let t = [1.0, 2.0, 3.0].map { MediaTime(seconds: $0) }
        XCTAssertEqual(BoundaryCrossing.crossed(t, from: MediaTime(seconds: 0.9), to: MediaTime(seconds: 1.0)), [t[0]])
        XCTAssertEqual(BoundaryCrossing.crossed(t, from: MediaTime(seconds: 1.0), to: MediaTime(seconds: 1.5)), [])
        XCTAssertEqual(BoundaryCrossing.crossed(t, from: MediaTime(seconds: 0.5), to: MediaTime(seconds: 3.5)), t)
        XCTAssertEqual(BoundaryCrossing.crossed(t, from: MediaTime(seconds: 2.5), to: MediaTime(seconds: 1.5)), [t[1]], "reverse play")
        XCTAssertEqual(BoundaryCrossing.crossed(t, from: MediaTime(seconds: 2), to: MediaTime(seconds: 2)), [])
    }
}
