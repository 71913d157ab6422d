@testable import BackendCore
import Backend
import CGStreamer
import Foundation
import ProcessProbe
import TestSupport
import XCTest

/// The engine on real `playbin` pipelines with real-time fake sinks.
final class PlaybackTests: XCTestCase {
    func testNormalPlayStateSequenceAndFinalPosition() {
        let recorder = EventRecorder()
        let player = Player.forTesting(recorder)
        defer { player.shutdown() }
        player.load(TestMedia.vp8)
        recorder.waitFor("EOS") { $0.contains(where: \.isEndOfStream) }
        XCTAssertEqual(recorder.states(), [.opening, .ready, .playing, .ended])
        guard case .endOfStream(let final)? = recorder.events.last(where: \.isEndOfStream) else { return XCTFail("no EOS") }
        XCTAssertEqual(final.seconds, 4.0, accuracy: 0.05, "final position at EOS")
        XCTAssertEqual(player.state, .ended)
        XCTAssertEqual(player.statistics.rejectedStateTransitions, 0)
        XCTAssertTrue(recorder.events.contains(.initialized))
    }

    func testAsyncStreamCarriesTheEventsAndEndsAtShutdown() async {
        let recorder = EventRecorder()
        let player = Player.forTesting(recorder, sync: false)
        let stream = player.events
        player.load(TestMedia.short)
        var seen: [PlayerEvent] = []
        for await event in stream {
            seen.append(event)
            if event.isEndOfStream { player.shutdown() }
        }
        // The loop ended: shutdown finished the stream.
        XCTAssertTrue(seen.contains(where: \.isEndOfStream))
        XCTAssertEqual(seen.filter { if case .stateChanged = $0 { return true } else { return false } }.suffix(2),
                       [.stateChanged(from: .ended, to: .stopping), .stateChanged(from: .stopping, to: .idle)])
        let delegateStates = recorder.events.filter { if case .stateChanged = $0 { return true } else { return false } }
        let streamStates = seen.filter { if case .stateChanged = $0 { return true } else { return false } }
        XCTAssertEqual(streamStates, delegateStates, "stream and delegate see the same events")
        // A stream asked for after shutdown is finished at once.
        var late = 0
        for await _ in player.events { late += 1 }
        XCTAssertEqual(late, 0)
    }

    func testPositionTicksFourTimesASecondDuringRealTimePlay() {
        let recorder = EventRecorder()
        let player = Player.forTesting(recorder)
        defer { player.shutdown() }
        player.load(TestMedia.h264)
        recorder.waitFor("playing") { recorder.reachedState(.playing)($0) }
        let mark = recorder.count
        recorder.waitFor("nine ticks") { $0.dropFirst(mark).compactMap(\.position).count >= 9 }
        let ticks = recorder.all.dropFirst(mark).filter { $0.event.position != nil }.prefix(9)
        // A loaded machine delays ticks but cannot make them early or merge them: 8 gaps, none
        // much shorter than the interval, and on average neither a storm nor a stall.
        let gaps = zip(ticks.dropFirst(), ticks).map { ($0.at - $1.at) * 1000 }
        XCTAssertGreaterThan(gaps.min() ?? 0, 150, "no tick fires early or twice: \(gaps)")
        XCTAssertEqual(gaps.reduce(0, +) / Double(gaps.count), 250, accuracy: 150, "mean tick interval: \(gaps)")
        let positions = ticks.compactMap(\.event.position)
        XCTAssertEqual(positions, positions.sorted(), "positions move forward")
        XCTAssertEqual(Set(positions).count, positions.count, "every tick reports a new position")
        recorder.assertDeliveredOnLoopThread()
    }

    func testDurationIsReportedWithinFiftyMilliseconds() {
        for (file, expected) in [(TestMedia.h264, 10.0), (TestMedia.vp8, 4.0), (TestMedia.theora, 4.0), (TestMedia.audioOnly, 4.0)] {
            let recorder = EventRecorder()
            let player = Player.forTesting(recorder) { $0.autoplay = false }
            player.load(file)
            let duration = recorder.waitForValue("duration of \(file)") { event -> MediaTime? in
                if case .durationChanged(let d?) = event { return d } else { return nil }
            }
            XCTAssertEqual(duration?.seconds ?? 0, expected, accuracy: 0.05, file)
            XCTAssertEqual(player.duration, duration)
            player.shutdown()
        }
    }

    func testMediaSizeSquarePixels() {
        XCTAssertEqual(firstMediaSize(TestMedia.vp8), VideoSize(codedWidth: 320, height: 240, parNumerator: 1, parDenominator: 1))
    }

    func testMediaSizeAppliesNonSquarePixelAspectRatio() {
        let size = firstMediaSize(TestMedia.nonSquare)
        XCTAssertEqual(size?.width, 1024)
        XCTAssertEqual(size?.height, 576)
        XCTAssertEqual(size?.codedWidth, 720)
    }

    func testMediaSizeWithAutomaticHeadlessSinks() {
        let recorder = EventRecorder()
        let player = Player(configuration: PlayerConfiguration(), delegate: recorder)
        defer { player.shutdown() }
        player.load(TestMedia.nonSquare)
        let size = recorder.waitForValue("media size") { event -> VideoSize? in
            if case .mediaSize(let s?) = event { return s } else { return nil }
        }
        XCTAssertEqual(size?.width, 1024)
        if ProcessInfo.processInfo.environment["DISPLAY"] == nil {
            XCTAssertTrue(recorder.events.contains { if case .sinksChosen(let v, _, _) = $0 { return v == "fakevideosink" } else { return false } })
        }
    }

    func testMediaSizeChangesMidStream() {
        let recorder = EventRecorder()
        let player = Player.forTesting(recorder)
        defer { player.shutdown() }
        player.load(TestMedia.sizeChange)
        recorder.waitFor("EOS") { $0.contains(where: \.isEndOfStream) }
        let sizes = recorder.events.compactMap { event -> VideoSize? in if case .mediaSize(let s?) = event { return s } else { return nil } }
        XCTAssertEqual(sizes.map(\.description), ["320x240", "640x480"])
    }

    func testAudioOnlyReportsNoVideoSize() {
        let recorder = EventRecorder()
        let player = Player.forTesting(recorder)
        defer { player.shutdown() }
        player.load(TestMedia.audioOnly)
        let info = recorder.waitForValue("media info") { event -> MediaInfo? in if case .mediaInfo(let i) = event { return i } else { return nil } }
        XCTAssertEqual(info?.hasVideo, false)
        XCTAssertEqual(info?.hasAudio, true)
        recorder.waitFor("playing") { recorder.reachedState(.playing)($0) }
        XCTAssertFalse(recorder.events.contains { if case .mediaSize = $0 { return true } else { return false } })
        XCTAssertNil(player.mediaSize)
    }

    func testSeekRequestedBeforePrerollLandsAfterIt() {
        let recorder = EventRecorder()
        let player = Player.forTesting(recorder)
        defer { player.shutdown() }
        player.load(TestMedia.h264)
        player.seek(to: MediaTime(seconds: 6))
        let landed = recorder.waitForValue("seek done") { $0.seekDone }
        XCTAssertEqual(landed?.seconds ?? 0, 6, accuracy: 0.1)
        // The seek ran after preroll: ready precedes seeking, and nothing was played from 0 first.
        let states = recorder.states()
        XCTAssertEqual(Array(states.prefix(3)), [.opening, .ready, .seeking])
        recorder.waitFor("playing after the seek") { recorder.reachedState(.playing)($0) }
        let firstTick = recorder.waitForValue("a tick after playing", after: recorder.count) { $0.position }
        XCTAssertGreaterThanOrEqual(firstTick?.seconds ?? 0, 5.9)
    }

    func testFractionSeekBeforePrerollWaitsForTheDuration() {
        let recorder = EventRecorder()
        let player = Player.forTesting(recorder)
        defer { player.shutdown() }
        player.load(TestMedia.h264)
        player.seek(toFraction: 0.5)
        let landed = recorder.waitForValue("seek done") { $0.seekDone }
        XCTAssertEqual(landed?.seconds ?? 0, 5.01, accuracy: 0.1)
    }

    func testDisabledVideoStillPlaysAudioHeadless() {
        let recorder = EventRecorder()
        let player = Player.forTesting(recorder, sync: false) { $0.videoSink = .disabled }
        defer { player.shutdown() }
        player.load(TestMedia.h264)
        recorder.waitFor("EOS") { $0.contains(where: \.isEndOfStream) }
        XCTAssertNil(player.mediaSize)
        XCTAssertNil(recorder.events.lazy.compactMap(\.error).first)
    }

    func testGettersAndStatisticsAfterShutdownDoNotBlock() {
        let recorder = EventRecorder()
        let player = Player.forTesting(recorder)
        player.load(TestMedia.vp8)
        recorder.waitFor("playing") { recorder.reachedState(.playing)($0) }
        let finished = DispatchSemaphore(value: 0)
        let racer = Thread { for _ in 0..<200 { _ = player.refreshStatistics() }; finished.signal() }
        racer.start()
        player.shutdown()
        XCTAssertEqual(finished.wait(timeout: .now() + 5), .success, "refreshStatistics racing shutdown returned")
        _ = player.refreshStatistics()
        XCTAssertEqual(player.state, .idle)
    }

    func testSeekStormIsThrottledAndTheLastRequestWins() {
        let recorder = EventRecorder()
        let player = Player.forTesting(recorder)
        defer { player.shutdown() }
        player.load(TestMedia.h264)
        recorder.waitFor("playing") { recorder.reachedState(.playing)($0) }
        let before = player.refreshStatistics().seekCount
        let start = Date()
        for i in 0..<20 { player.seek(to: MediaTime(seconds: 1 + Double(i) * 0.3)) }
        XCTAssertLessThan(Date().timeIntervalSince(start), 1, "seek calls do not wait for the pipeline")
        let last = 1 + 19 * 0.3
        recorder.waitFor("the last seek to land") { events in events.compactMap(\.seekDone).contains { abs($0.seconds - last) < 0.1 } }
        // Nothing else may run after the throttle window (500 ms): three more ticks (250 ms
        // apart, never early) outlast it.
        let mark = recorder.count
        recorder.waitFor("three ticks after landing") { $0.dropFirst(mark).compactMap(\.position).count >= 3 }
        let executed = player.refreshStatistics().seekCount - before
        XCTAssertLessThanOrEqual(executed, 2)
        XCTAssertGreaterThanOrEqual(executed, 1)
        XCTAssertEqual(recorder.events.compactMap(\.seekDone).last?.seconds ?? 0, last, accuracy: 0.1)
    }

    func testSeekWhilePausedStaysPausedAndReportsLandedPosition() {
        let recorder = EventRecorder()
        let player = Player.forTesting(recorder)
        defer { player.shutdown() }
        player.load(TestMedia.vp8)
        recorder.waitFor("playing") { recorder.reachedState(.playing)($0) }
        player.pause()
        recorder.waitFor("paused") { recorder.reachedState(.paused)($0) }
        let mark = recorder.count
        player.seek(to: MediaTime(seconds: 2.5))
        let landed = recorder.waitForValue("seek done", after: mark) { $0.seekDone }
        XCTAssertEqual(landed?.seconds ?? 0, 2.5, accuracy: 0.05)
        recorder.waitFor("back to paused") { events in
            events.dropFirst(mark).contains { if case .stateChanged(.seeking, .paused) = $0 { return true } else { return false } }
        }
        XCTAssertEqual(player.state, .paused)
        player.play()
        recorder.waitFor("EOS") { $0.contains(where: \.isEndOfStream) }
        let states = recorder.states()
        XCTAssertEqual(states, [.opening, .ready, .playing, .paused, .seeking, .paused, .playing, .ended])
    }

    func testEndedThenSeekBackPlaysAgain() {
        let recorder = EventRecorder()
        let player = Player.forTesting(recorder)
        defer { player.shutdown() }
        player.load(TestMedia.short)
        recorder.waitFor("EOS") { $0.contains(where: \.isEndOfStream) }
        player.seek(to: .zero)
        recorder.waitFor("second EOS", timeout: 10) { $0.filter(\.isEndOfStream).count == 2 }
        XCTAssertEqual(Array(recorder.states().suffix(3)), [.seeking, .playing, .ended])
    }

    func testBufferingMessagesPauseAndResumeARealPipeline() {
        let recorder = EventRecorder()
        let player = Player.forTesting(recorder)
        defer { player.shutdown() }
        player.load(TestMedia.h264)
        recorder.waitFor("playing") { recorder.reachedState(.playing)($0) }
        post(player) { gst_message_new_buffering(CGStreamer_as_object(UnsafeMutableRawPointer($0)), 30) }
        recorder.waitFor("buffering state") { recorder.reachedState(.buffering)($0) }
        XCTAssertTrue(waitForPipelineState(player, GST_STATE_PAUSED), "pipeline paused while buffering")
        post(player) { gst_message_new_buffering(CGStreamer_as_object(UnsafeMutableRawPointer($0)), 30) } // repeat: dropped
        post(player) { gst_message_new_buffering(CGStreamer_as_object(UnsafeMutableRawPointer($0)), 100) }
        recorder.waitFor("back to playing") { events in
            events.contains { if case .stateChanged(.buffering, .playing) = $0 { return true } else { return false } }
        }
        XCTAssertTrue(waitForPipelineState(player, GST_STATE_PLAYING))
        let levels = recorder.events.compactMap { e -> Int? in if case .buffering(let p) = e { return p } else { return nil } }
        XCTAssertEqual(levels, [30, 100], "repeated level dropped")
        XCTAssertGreaterThan(player.refreshStatistics().bufferingTimeMilliseconds, 0)
    }

    func testClockLostMessageOnTheBusIsHandled() {
        let recorder = EventRecorder()
        let player = Player.forTesting(recorder)
        defer { player.shutdown() }
        player.load(TestMedia.h264)
        recorder.waitFor("playing") { recorder.reachedState(.playing)($0) }
        var traceStart = 0
        player.withEngine { traceStart = $0.pipeline?.transitions.count ?? 0 }
        post(player) { pipeline in
            let clock = gst_pipeline_get_clock(UnsafeMutableRawPointer(pipeline).assumingMemoryBound(to: GstPipeline.self))
            defer { if let clock { gst_object_unref(UnsafeMutableRawPointer(clock)) } }
            return gst_message_new_clock_lost(CGStreamer_as_object(UnsafeMutableRawPointer(pipeline)), clock)
        }
        XCTAssertTrue(eventually { player.refreshStatistics().clockLostRecoveries > 0 })
        XCTAssertEqual(player.statistics.clockLostRecoveries, 1)
        XCTAssertTrue(waitForPipelineState(player, GST_STATE_PLAYING))
        var trace: [String] = []
        _ = eventually {
            player.withEngine { engine in
                trace = (engine.pipeline?.transitions ?? []).dropFirst(traceStart).map { "\($0.0.rawValue)>\($0.1.rawValue)" }
            }
            return trace.count >= 2
        }
        // PLAYING(4) → PAUSED(3), then PAUSED → PLAYING: the pipeline picked a new clock.
        XCTAssertEqual(trace, ["4>3", "3>4"])
        let a = recorder.waitForValue("tick", after: recorder.count) { $0.position }
        let b = recorder.waitForValue("next tick", after: recorder.count) { $0.position }
        XCTAssertGreaterThan(b ?? .zero, a ?? .zero, "position keeps moving after the clock was lost")
    }

    func testMissingFileNamesTheElementAndMessageAndPlayerRecovers() {
        let recorder = EventRecorder()
        let player = Player.forTesting(recorder)
        defer { player.shutdown() }
        player.load("/nonexistent/definitely-missing.mp4")
        let error = recorder.waitForValue("error") { $0.error }
        XCTAssertEqual(error?.element, "source")
        XCTAssertEqual(error?.kind, .resource)
        XCTAssertTrue(error?.message.localizedCaseInsensitiveContains("not found") ?? false, error?.message ?? "")
        XCTAssertNotNil(error?.debug)
        XCTAssertEqual(player.state, .error)
        XCTAssertEqual(player.snapshot.lastError, error)
        // The same player plays something else afterwards.
        player.load(TestMedia.short)
        recorder.waitFor("EOS after recovery") { $0.contains(where: \.isEndOfStream) }
        XCTAssertEqual(Array(recorder.states().prefix(2)), [.opening, .error])
        XCTAssertEqual(recorder.states().suffix(4), [.opening, .ready, .playing, .ended])
    }

    func testCorruptInputsFailWithElementAndMessage() {
        for file in [TestMedia.garbage, TestMedia.empty, TestMedia.noMoov] {
            let recorder = EventRecorder()
            // decodebin sometimes swallows qtdemux's error on no-moov.mp4 (GStreamer 1.22); the open
            // watchdog then fails the load: keep it well inside this test's 10 s wait.
            let player = Player.forTesting(recorder) { $0.openTimeout = .seconds(3) }
            player.load(file)
            let error = recorder.waitForValue("error for \(file)") { $0.error }
            XCTAssertNotNil(error?.element, file)
            XCTAssertFalse(error?.message.isEmpty ?? true, file)
            XCTAssertEqual(player.state, .error, file)
            player.shutdown()
        }
    }

    func testMalformedURIFailsWithoutTouchingGStreamer() {
        let recorder = EventRecorder()
        let player = Player.forTesting(recorder)
        defer { player.shutdown() }
        player.load("   ")
        let error = recorder.waitForValue("error") { $0.error }
        XCTAssertEqual(error?.kind, .invalidInput)
        XCTAssertEqual(recorder.states(), [.opening, .error])
    }

    func testCreatePlayShutdownCyclesLeaveNoThreadsBehind() {
        func cycle() {
            let recorder = EventRecorder()
            let player = Player.forTesting(recorder, sync: false)
            player.load(TestMedia.short)
            recorder.waitFor("EOS") { $0.contains(where: \.isEndOfStream) }
            player.shutdown()
        }
        for _ in 0..<5 { cycle() } // warm up GStreamer's own thread pools and registry
        let baseline = ProcessProbe.current.threadCount ?? -1
        for _ in 0..<50 { cycle() }
        var after = ProcessProbe.current.threadCount ?? -1
        _ = eventually { after = ProcessProbe.current.threadCount ?? -1; return after <= baseline + 2 }
        XCTAssertLessThanOrEqual(after, baseline + 2, "threads before \(baseline), after 50 cycles \(after)")
    }

    func testShutdownIsIdempotentAndCommandsAfterItAreIgnored() {
        let recorder = EventRecorder()
        let player = Player.forTesting(recorder)
        player.load(TestMedia.vp8)
        recorder.waitFor("playing") { recorder.reachedState(.playing)($0) }
        player.shutdown()
        player.shutdown()
        recorder.assertDeliveredOnLoopThread()
        // Every event came from the loop thread, and shutdown joined it: nothing can come later.
        let loop = recorder.loopThreadID.map(String.init) ?? "?"
        XCTAssertFalse(ProcessProbe.current.threadIDs?.contains(loop) ?? true, "the loop thread \(loop) ended")
        let count = recorder.count
        player.play(); player.seek(to: .zero); player.load(TestMedia.h264)
        XCTAssertEqual(recorder.count, count)
        XCTAssertEqual(player.state, .idle)
        XCTAssertEqual(Array(recorder.states().suffix(2)), [.stopping, .idle])
    }

    func testDelegateMayCallBackIntoThePlayer() {
        final class Reentrant: PlayerDelegate, @unchecked Sendable {
            let recorder = EventRecorder()
            var seeked = false // loop thread only
            func player(_ player: Player, didReceive event: PlayerEvent) {
                recorder.player(player, didReceive: event)
                if case .stateChanged(_, .ready) = event, !seeked {
                    seeked = true
                    player.seek(to: MediaTime(seconds: 3))
                    _ = player.snapshot
                    _ = player.refreshStatistics() // on the loop thread: answers from the snapshot, never waits
                }
                if case .endOfStream = event { player.stop() }
            }
        }
        let delegate = Reentrant()
        let player = Player.forTesting(delegate.recorder)
        player.delegate = delegate
        defer { player.shutdown() }
        player.load(TestMedia.vp8)
        delegate.recorder.waitFor("idle after EOS") { events in
            events.contains(where: \.isEndOfStream) && events.last == .stateChanged(from: .stopping, to: .idle)
        }
        XCTAssertEqual(delegate.recorder.events.compactMap(\.seekDone).first?.seconds ?? 0, 3, accuracy: 0.1)
    }

    // MARK: Helpers

    private func firstMediaSize(_ file: String) -> VideoSize? {
        let recorder = EventRecorder()
        let player = Player.forTesting(recorder) { $0.autoplay = false }
        defer { player.shutdown() }
        player.load(file)
        return recorder.waitForValue("media size of \(file)") { event -> VideoSize? in
            if case .mediaSize(let s?) = event { return s } else { return nil }
        }
    }

    /// Posts a message built from the playbin on its bus (as an element would).
    private func post(_ player: Player, _ make: @escaping (UnsafeMutablePointer<GstElement>) -> UnsafeMutablePointer<GstMessage>?) {
        player.withEngine { engine in
            guard let playbin = engine.pipeline?.element, let message = make(playbin) else { return }
            _ = gst_element_post_message(playbin, message)
        }
    }

    /// Polls the playbin's GStreamer state (no event reports it).
    private func waitForPipelineState(_ player: Player, _ wanted: GstState) -> Bool {
        eventually {
            var current: GstState = GST_STATE_VOID_PENDING
            player.withEngine { engine in
                if let playbin = engine.pipeline?.element { gst_element_get_state(playbin, &current, nil, 0) }
            }
            return current == wanted
        }
    }
}
