@testable import BackendCore
import Backend
import Foundation
import ProcessProbe
import Synchronization
import TestSupport
import XCTest

/// The engine's contract with its callers: commands are queued (never re-entered from a
/// callback), events arrive in the order raised, `load(_:startAt:)` and `currentPosition()`.
final class EngineContractTests: XCTestCase {
    /// A delegate with no queue that pauses, seeks and loads from inside its callbacks, and
    /// whose callbacks (events and queue-less time observers alike) call every blocking getter.
    private final class CallingBack: PlayerDelegate, @unchecked Sendable {
        let recorder = EventRecorder()
        /// Loop thread only (the delegate and the observers are called there, one at a time).
        var stateRightAfterPause: PlayerState?
        var nestedCallbacks = 0
        /// What each callback saw, in the order the callbacks ran: `event <case>` or `observer <kind>`.
        var calls: [String] = []
        /// Blocking getters that did not answer from the snapshot (engine code ran inside a callback).
        var reentries: [String] = []
        private var inCallback = false
        private var pausedOnce = false
        private var seekedOnce = false
        private var loadedNext = false
        let next: String

        init(next: String) { self.next = next }

        func player(_ player: Player, didReceive event: PlayerEvent) {
            enter("event \(String(describing: event).prefix { $0 != "(" })", player)
            defer { inCallback = false }
            recorder.player(player, didReceive: event)
            switch event {
            case .stateChanged(_, .playing) where !pausedOnce:
                pausedOnce = true
                player.pause()
                // Queued, not run inline: the engine has not moved yet.
                stateRightAfterPause = player.state
            case .stateChanged(_, .paused) where !seekedOnce:
                seekedOnce = true
                player.seek(to: MediaTime(seconds: 2))
                player.play()
            case .endOfStream where !loadedNext:
                loadedNext = true
                player.load(next)
            default: break
            }
        }

        /// A queue-less time observer's call (loop thread).
        func observed(_ kind: String, _ player: Player?) {
            guard let player else { return }
            enter("observer \(kind)", player)
            inCallback = false
        }

        private func enter(_ call: String, _ player: Player) {
            if inCallback { nestedCallbacks += 1 }
            inCallback = true
            calls.append(call)
            probeBlockingGetters(player, in: call)
        }

        /// Every getter that waits for the loop, called on the loop: each must answer from the
        /// snapshot the callback sees, without running engine code (which would change it).
        private func probeBlockingGetters(_ player: Player, in call: String) {
            let snapshot = player.snapshot, statistics = player.statistics
            if player.currentPosition() != snapshot.position { reentries.append("currentPosition() in \(call)") }
            if player.refreshStatistics() != statistics { reentries.append("refreshStatistics() in \(call)") }
            if (try? player.snapshotNow(format: .jpeg)) != nil { reentries.append("snapshotNow() in \(call)") }
            if player.snapshot != snapshot { reentries.append("the snapshot moved in \(call)") }
        }
    }

    func testCommandsFromCallbacksAreQueuedAndEventsKeepTheirOrder() {
        let delegate = CallingBack(next: TestMedia.theora)
        let player = Player.forTesting(delegate.recorder)
        player.delegate = delegate
        defer { player.shutdown() }
        player.addPeriodicTimeObserver(interval: .milliseconds(100)) { [weak player] _ in delegate.observed("periodic", player) }
        player.addBoundaryTimeObserver(times: [MediaTime(seconds: 1), MediaTime(seconds: 3)]) { [weak player] _ in
            delegate.observed("boundary", player)
        }
        player.load(TestMedia.vp8)
        delegate.recorder.waitFor("the second item playing", timeout: 20) { events in
            events.filter { if case .uriLoaded = $0 { return true } else { return false } }.count == 2
                && events.last.map { if case .stateChanged(_, .playing) = $0 { return true } else { return false } } == true
        }
        player.shutdown() // the loop has ended: `delegate`'s loop-thread state may be read
        XCTAssertEqual(delegate.stateRightAfterPause, .playing, "pause() from a callback must not run inline")
        XCTAssertEqual(delegate.nestedCallbacks, 0, "no event or observer may be called from inside another callback")
        XCTAssertEqual(delegate.reentries, [], "blocking getters called on the loop thread must not run the engine")
        // Time observers leave the loop like events: the first call (the preroll landing, raised
        // after the media info) comes after the delegate heard that media info.
        let calls = delegate.calls
        let firstPeriodic = calls.firstIndex(of: "observer periodic"), firstInfo = calls.firstIndex(of: "event mediaInfo")
        XCTAssertNotNil(firstPeriodic, "the periodic observer was called")
        XCTAssertTrue(calls.contains("observer boundary"), "the boundary observer was called")
        XCTAssertLessThan(firstInfo ?? .max, firstPeriodic ?? .min, "observer calls keep their place among events: \(calls.prefix(20))")
        // Every state change starts where the previous one ended: nothing was reordered.
        var last: PlayerState = .idle
        for case .stateChanged(let from, let to) in delegate.recorder.events {
            XCTAssertEqual(from, last, "state events out of order: \(delegate.recorder.states())")
            last = to
        }
        XCTAssertEqual(delegate.recorder.events.compactMap(\.seekDone).first?.seconds ?? 0, 2, accuracy: 0.1)
    }

    /// `shutdown()` from a queue-less callback: the teardown runs after the callback returns,
    /// then the events it raises are delivered and the loop thread ends.
    func testShutdownFromACallbackTearsDownAfterItReturns() {
        final class ShuttingDown: PlayerDelegate, @unchecked Sendable {
            let recorder = EventRecorder()
            var stateRightAfterShutdown: PlayerState? // loop thread only
            func player(_ player: Player, didReceive event: PlayerEvent) {
                recorder.player(player, didReceive: event)
                guard case .stateChanged(_, .playing) = event, stateRightAfterShutdown == nil else { return }
                player.shutdown()
                stateRightAfterShutdown = player.state
                player.play() // refused: shut down
            }
        }
        let delegate = ShuttingDown()
        let player = Player.forTesting(delegate.recorder)
        player.delegate = delegate
        defer { player.shutdown() }
        player.load(TestMedia.vp8)
        delegate.recorder.waitFor("idle after the shutdown") { $0.last == .stateChanged(from: .stopping, to: .idle) }
        let loop = delegate.recorder.loopThreadID.map(String.init) ?? "?"
        XCTAssertTrue(eventually { !(ProcessProbe.current.threadIDs?.contains(loop) ?? true) }, "the loop thread \(loop) ended")
        XCTAssertEqual(delegate.stateRightAfterShutdown, .playing, "shutdown() from a callback must not tear down inline")
        XCTAssertEqual(Array(delegate.recorder.states().suffix(3)), [.playing, .stopping, .idle])
        XCTAssertEqual(player.state, .idle)
    }

    func testLoadStartingAtAFractionPlaysFromThere() {
        let recorder = EventRecorder()
        let player = Player.forTesting(recorder)
        defer { player.shutdown() }
        player.load(TestMedia.h264, startAt: .fraction(0.5))
        let landed = recorder.waitForValue("seek done") { $0.seekDone }
        XCTAssertEqual(landed?.seconds ?? 0, 5.0, accuracy: 0.1)
        recorder.waitFor("playing after the start seek") { recorder.reachedState(.playing)($0) }
        XCTAssertEqual(Array(recorder.states().prefix(3)), [.opening, .ready, .seeking])
        let tick = recorder.waitForValue("a tick", after: recorder.count) { $0.position }
        XCTAssertGreaterThanOrEqual(tick?.seconds ?? 0, 4.9)
    }

    func testLoadStartingAtATimeWithoutAutoplayWaitsThereInPaused() {
        let recorder = EventRecorder()
        let player = Player.forTesting(recorder) { $0.autoplay = false }
        defer { player.shutdown() }
        player.load(TestMedia.vp8, startAt: .time(MediaTime(seconds: 3)))
        let landed = recorder.waitForValue("seek done") { $0.seekDone }
        XCTAssertEqual(landed?.seconds ?? 0, 3.0, accuracy: 0.1)
        XCTAssertFalse(recorder.states().contains(.playing))
        XCTAssertEqual(player.currentPosition()?.seconds ?? -1, 3.0, accuracy: 0.1)
    }

    func testTheSettledPositionOfALoadStartingAtATimeIsThatTimeBeforeTheSeekLands() async {
        let recorder = EventRecorder()
        let player = Player.forTesting(recorder) { $0.autoplay = false }
        defer { player.shutdown() }
        player.load(TestMedia.vp8, startAt: .time(MediaTime(seconds: 3)))
        // Queued right behind the load on the loop thread: the pipeline has not prerolled, the
        // start is a seek waiting for it, and the position query has nothing to answer yet.
        let before = await player.settledPosition()
        XCTAssertEqual(before?.seconds ?? -1, 3.0, accuracy: 0.001, "the start, before it landed")
        _ = recorder.waitForValue("seek done") { $0.seekDone }
        let after = await player.settledPosition()
        XCTAssertEqual(after?.seconds ?? -1, 3.0, accuracy: 0.1, "the landed position")
    }

    func testCurrentPositionIsALiveQuery() {
        let recorder = EventRecorder()
        let player = Player.forTesting(recorder) { $0.positionInterval = .seconds(3600) }
        defer { player.shutdown() }
        XCTAssertNil(player.currentPosition(), "nothing loaded")
        player.load(TestMedia.vp8)
        recorder.waitFor("playing") { recorder.reachedState(.playing)($0) }
        let first = player.currentPosition() ?? .zero
        // Wait for real time to pass on the pipeline clock (a state event cannot mark it).
        var later = first
        _ = eventually(interval: .milliseconds(50)) {
            later = player.currentPosition() ?? .zero
            return later >= first + MediaTime.milliseconds(300)
        }
        XCTAssertGreaterThanOrEqual(later, first + MediaTime.milliseconds(300), "the query follows the playhead")
        XCTAssertNil(recorder.events.compactMap(\.position).first(where: { $0 > MediaTime.milliseconds(300) }),
                     "no tick was needed: the hourly tick has not fired")
    }

    /// The `async` overloads answer like the blocking ones, after the commands issued before them.
    func testAsyncGettersAnswerFromTheLoopWithoutBlocking() async throws {
        let player = Player.forTesting { $0.positionInterval = .seconds(3600) }
        let nothingLoaded = await player.currentPosition()
        XCTAssertNil(nothingLoaded, "nothing loaded")
        try await player.waitFor("playing", where: { $0.newState == .playing }) { player.load(TestMedia.vp8) }
        _ = try await player.waitForValue("the seek landed", { $0.seekDone }) { player.seek(to: MediaTime(seconds: 2)) }
        let statistics = await player.refreshStatistics()
        XCTAssertEqual(statistics.seekCount, 1, "collected on the loop, after the seek")
        let afterSeek = await player.currentPosition()
        XCTAssertGreaterThanOrEqual(afterSeek?.seconds ?? 0, 1.9)
        player.shutdown()
        let afterShutdown = await player.currentPosition()
        XCTAssertNil(afterShutdown)
        let lastStatistics = await player.refreshStatistics()
        XCTAssertEqual(lastStatistics, player.statistics, "after shutdown: the last statistics")
    }

    /// A negative rate kept from before a load starts from the end, on two formats.
    func testReverseRateAtLoadPlaysBackwardsFromTheEnd() throws {
        for file in [TestMedia.theora, TestMedia.vp8] {
            let recorder = EventRecorder()
            let player = Player.forTesting(recorder)
            defer { player.shutdown() }
            try player.setRate(-1)
            player.load(file)
            recorder.waitFor("EOS at the start of \(file)", timeout: 15) { $0.contains(where: \.isEndOfStream) }
            let ticks = recorder.events.compactMap(\.position)
            let duration = player.duration?.seconds ?? 0
            XCTAssertGreaterThan(duration, 3, file)
            XCTAssertGreaterThan(ticks.map(\.seconds).max() ?? 0, duration - 1, "started near the end: \(file)")
            let backwards = ticks.filter { $0 > .zero && $0 < MediaTime(seconds: duration - 0.5) }
            XCTAssertGreaterThanOrEqual(backwards.count, 8, "really played backwards: \(file)")
            XCTAssertEqual(backwards, backwards.sorted(by: >), "positions decrease: \(file)")
            XCTAssertFalse(recorder.events.contains { $0.error != nil }, "\(file): \(recorder.events.compactMap(\.error))")
            guard case .endOfStream(let final)? = recorder.events.last(where: \.isEndOfStream) else { return XCTFail("no EOS") }
            XCTAssertLessThan(final.seconds, 0.5, file)
        }
    }

    func testAStreamMadeAfterInitStartsWithInitializedThenTheSinks() async {
        var configuration = PlayerConfiguration()
        configuration.videoSink = .automatic // headless: announced with a `sinksChosen` event
        configuration.audioSink = .automatic
        let player = Player(configuration: configuration)
        defer { player.shutdown() }
        try? await Task.sleep(for: .milliseconds(200)) // the loop has started and raised its events
        let watchdog = Task { try await Task.sleep(for: .seconds(5)); player.shutdown() } // ends the stream
        defer { watchdog.cancel() }
        var first: [PlayerEvent] = []
        for await event in player.events {
            first.append(event)
            if first.count == 2 { break }
        }
        XCTAssertEqual(first.first, .initialized)
        guard case .sinksChosen? = first.last else { return XCTFail("expected the sinks second: \(first)") }
    }
}
