@testable import BackendCore
import Backend
import Foundation
import Synchronization
import TestSupport
import XCTest

/// Commands with results (issue 21 item 3) on real pipelines with real-time fake sinks:
/// `loadAsync` returns the load's ID at preroll, `seekAsync` where the seek landed, and every
/// reply resolves — with an error on a new load, a stop and the shutdown.
final class CommandResultsTests: XCTestCase {
    /// A paused player (autoplay off), so positions hold still while a test looks at them.
    private func pausedPlayer(throttle: Duration? = nil) -> Player {
        Player.forTesting { configuration in
            configuration.autoplay = false
            if let throttle { configuration.seekThrottle = throttle }
        }
    }

    /// Values arriving on another thread, and a wait for them (woken on every arrival).
    private final class Arrivals<Value: Sendable>: Sendable {
        private let values = Mutex<[Value]>([])
        private let condition = NSCondition()

        func append(_ value: Value) {
            values.withLock { $0.append(value) }
            condition.lock(); condition.broadcast(); condition.unlock()
        }

        var all: [Value] { values.withLock { $0 } }

        /// Waits until `done` holds over the values; false after `timeout`.
        func wait(timeout: TimeInterval = 10, until done: ([Value]) -> Bool) -> Bool {
            let deadline = Date().addingTimeInterval(timeout)
            condition.lock()
            defer { condition.unlock() }
            while !done(all) {
                if !condition.wait(until: deadline) { return done(all) }
            }
            return true
        }
    }

    /// Replies made here record their result; ``wait(for:)`` waits for them.
    private final class Replies: Sendable {
        private let arrivals = Arrivals<(Int, Result<MediaTime, PlayerError>)>()

        func make(_ index: Int) -> PendingReply<MediaTime> {
            PendingReply { [arrivals] result in arrivals.append((index, result)) }
        }

        func result(_ index: Int) -> Result<MediaTime, PlayerError>? { arrivals.all.first { $0.0 == index }?.1 }

        /// The results of `indices`, in that order; nil when one did not come within 10 s.
        func wait(for indices: [Int]) -> [Result<MediaTime, PlayerError>]? {
            guard arrivals.wait(until: { all in indices.allSatisfy { index in all.contains { $0.0 == index } } }) else { return nil }
            return indices.map { result($0)! }
        }
    }

    func testLoadAsyncReturnsTheIDItsEventsCarry() async throws {
        let player = pausedPlayer()
        defer { player.shutdown() }
        let records = player.records
        let first = try await player.loadAsync(TestMedia.h264)
        let second = try await player.loadAsync(TestMedia.vp8)
        XCTAssertEqual(second.rawValue, first.rawValue + 1, "one new ID per load")
        var uriLoads: [(LoadID?, String)] = []
        var initialized: [LoadID?] = []
        for await record in records {
            if case .initialized = record.event { initialized.append(record.loadID) }
            if case .uriLoaded(let uri) = record.event { uriLoads.append((record.loadID, uri)) }
            if case .mediaInfo(let info) = record.event, info.uri.hasSuffix("vp8-opus-4s.webm") { break }
        }
        XCTAssertEqual(initialized, [nil], "events before the first load carry no load ID")
        XCTAssertEqual(uriLoads.map(\.0), [first, second])
        XCTAssertTrue(uriLoads.last?.1.hasSuffix("vp8-opus-4s.webm") ?? false)
    }

    func testLoadAsyncThrowsTheLoadsError() async {
        let player = pausedPlayer()
        defer { player.shutdown() }
        do {
            try await player.loadAsync("")
            XCTFail("an empty location loaded")
        } catch {
            XCTAssertEqual(error.kind, .invalidInput)
        }
        do {
            try await player.loadAsync(TestMedia.path("does-not-exist.mp4"))
            XCTFail("a missing file loaded")
        } catch {
            XCTAssertEqual(error.kind, .resource, "\(error)")
        }
        let id = try? await player.loadAsync(TestMedia.vp8)
        XCTAssertNotNil(id, "a good load after failed ones prerolls")
    }

    func testSeekAsyncReturnsWhereTheSeekLanded() async throws {
        let player = pausedPlayer()
        defer { player.shutdown() }
        try await player.loadAsync(TestMedia.h264)
        let records = player.records
        let landed = try await player.seekAsync(to: MediaTime(seconds: 4), mode: .accurate)
        XCTAssertEqual(landed.seconds, 4, accuracy: 0.1, "an accurate seek lands at its target")
        var seekDone: MediaTime?
        for await record in records {
            if case .seekDone(let position) = record.event { seekDone = position; break }
        }
        XCTAssertEqual(seekDone, landed, "the reply is the position the seek-done event carries")
        let relative = try await player.seekAsync(by: MediaTime(seconds: 2), mode: .accurate)
        XCTAssertEqual(relative.seconds, 6, accuracy: 0.1)
        let fraction = try await player.seekAsync(toFraction: 0.25, mode: .accurate)
        XCTAssertEqual(fraction.seconds, (player.duration ?? .zero).seconds / 4, accuracy: 0.1)
        let statistics = await player.refreshStatistics()
        XCTAssertEqual(statistics.seekCount, 3)
        let position = await player.currentPosition()
        XCTAssertEqual(position?.seconds ?? -1, fraction.seconds, accuracy: 0.1, "paused: the pipeline stays where the seek landed")
    }

    func testASeekBeforePrerollWaitsForIt() async throws {
        let player = pausedPlayer()
        defer { player.shutdown() }
        player.load(TestMedia.h264)
        let landed = try await player.seekAsync(to: MediaTime(seconds: 3), mode: .accurate)
        XCTAssertEqual(landed.seconds, 3, accuracy: 0.1)
    }

    func testThrottledSeeksResolveWithTheLandingOfTheSeekThatReplacedThem() async throws {
        let player = pausedPlayer()
        defer { player.shutdown() }
        try await player.loadAsync(TestMedia.h264)
        let replies = Replies()
        // One dispatch: the first seek runs at once, the next two wait for the throttle's timer
        // and the last of them wins.
        player.command { engine in
            engine.requestSeek(.absolute(MediaTime(seconds: 2)), mode: .accurate, reply: replies.make(0))
            engine.requestSeek(.absolute(MediaTime(seconds: 6)), mode: .accurate, reply: replies.make(1))
            engine.requestSeek(.absolute(MediaTime(seconds: 7)), mode: .accurate, reply: replies.make(2))
        }
        let results = try XCTUnwrap(replies.wait(for: [0, 1, 2]), "every reply resolves")
        let landings = try results.map { try $0.get() }
        XCTAssertEqual(landings[2].seconds, 7, accuracy: 0.1)
        XCTAssertEqual(landings[1], landings[2], "the coalesced seek resolves with the landing of the seek that replaced it")
        // The first lands on its own unless the second was issued before it landed.
        XCTAssertTrue(abs(landings[0].seconds - 2) < 0.1 || landings[0] == landings[2], "\(landings)")
        let statistics = await player.refreshStatistics()
        XCTAssertEqual(statistics.seekCount, 2, "two seeks were issued for three requests")
    }

    func testShutdownWithAPendingSeekFailsItsReply() async throws {
        let player = pausedPlayer(throttle: .seconds(60))
        try await player.loadAsync(TestMedia.h264)
        try await player.seekAsync(to: MediaTime(seconds: 1), mode: .accurate)
        let replies = Replies()
        player.command { engine in engine.requestSeek(.absolute(MediaTime(seconds: 5)), mode: .accurate, reply: replies.make(0)) }
        _ = await player.currentPosition()                          // the request has run on the loop
        XCTAssertNil(replies.result(0), "held by the throttle for a minute")
        player.shutdown()
        let result = try XCTUnwrap(replies.wait(for: [0])?.first)
        XCTAssertThrowsError(try result.get()) { XCTAssertEqual($0 as? PlayerError, .shutDown) }
        // After the shutdown, commands fail at once and values come from the last snapshot.
        do {
            try await player.seekAsync(to: .zero)
            XCTFail("a seek after shutdown succeeded")
        } catch {
            XCTAssertEqual(error, .shutDown)
        }
        let position = await player.currentPosition()
        XCTAssertNil(position)
        let statistics = await player.refreshStatistics()
        XCTAssertEqual(statistics, player.statistics)
    }

    func testANewLoadAndAStopFailPendingSeeks() async throws {
        let player = pausedPlayer(throttle: .seconds(60))
        defer { player.shutdown() }
        try await player.loadAsync(TestMedia.h264)
        try await player.seekAsync(to: MediaTime(seconds: 1), mode: .accurate)
        let replies = Replies()
        player.command { engine in engine.requestSeek(.absolute(MediaTime(seconds: 5)), mode: .accurate, reply: replies.make(0)) }
        try await player.loadAsync(TestMedia.vp8)
        let replaced = try XCTUnwrap(replies.wait(for: [0])?.first)
        XCTAssertThrowsError(try replaced.get()) { XCTAssertEqual($0 as? PlayerError, .replacedByLoad) }
        try await player.seekAsync(to: MediaTime(seconds: 1), mode: .accurate)
        player.command { engine in engine.requestSeek(.absolute(MediaTime(seconds: 2)), mode: .accurate, reply: replies.make(1)) }
        player.stop()
        let stopped = try XCTUnwrap(replies.wait(for: [1])?.first)
        XCTAssertThrowsError(try stopped.get()) { XCTAssertEqual($0 as? PlayerError, .stopped) }
    }

    func testSeekAsyncWithNothingLoadedThrows() async {
        let player = pausedPlayer()
        defer { player.shutdown() }
        do {
            try await player.seekAsync(to: MediaTime(seconds: 1))
            XCTFail("a seek with nothing loaded succeeded")
        } catch {
            XCTAssertEqual(error.kind, .invalidArgument)
        }
    }

    func testSeekAsyncOnMediaThatCannotSeekThrows() async throws {
        let fifo = NSTemporaryDirectory() + "gstplay-unseekable-\(UUID().uuidString).ogg"
        guard mkfifo(fifo, 0o600) == 0 else { throw NSError(domain: "mkfifo", code: Int(errno)) }
        defer { unlink(fifo) }
        let bytes = try XCTUnwrap(FileManager.default.contents(atPath: TestMedia.audioOnly))
        let writer = FIFOWriter.start(Array(bytes), to: fifo)
        let player = pausedPlayer()
        try await player.loadAsync(fifo)                        // a pipe: read once, front to back
        XCTAssertFalse(player.snapshot.isSeekable)
        do {
            let landed = try await player.seekAsync(to: MediaTime(seconds: 1))
            XCTFail("a seek in a pipe landed at \(landed)")
        } catch {
            XCTAssertEqual(error.kind, .invalidArgument, "\(error)")
        }
        player.shutdown()                                       // the reader goes: the writer ends
        XCTAssertEqual(writer.wait(timeout: .now() + 10), .success)
    }

    func testAGaplessHandOverBeginsANewLoadID() async throws {
        let player = pausedPlayer()
        defer { player.shutdown() }
        let first = try await player.loadAsync(TestMedia.vp8)
        let records = player.records
        // What a queue feature does when the next item it handed to playbin reaches the sinks.
        let next = try MediaLocation.uri(for: TestMedia.theora)
        player.command { engine in engine.context.continueWithHandedOverMedia(uri: next, stalePositionsFrom: nil) }
        var handedOver: PlayerEventRecord?
        for await record in records {
            if case .uriLoaded(next) = record.event { handedOver = record; break }
        }
        XCTAssertEqual(handedOver?.loadID, LoadID(rawValue: first.rawValue + 1))
        let third = try await player.loadAsync(TestMedia.h264)
        XCTAssertEqual(third.rawValue, first.rawValue + 2)
    }

    func testEachQueueItemGetsItsOwnLoadIDAlsoWhenHandedOverGaplessly() async throws {
        let player = Player.forTesting()
        defer { player.shutdown() }
        let records = player.records
        let items = try ["gapless-440.ogg", "gapless-660.ogg"].map { QueueItem(uri: try MediaLocation.uri(for: TestMedia.path($0))) }
        try player.setQueue(items)
        var uriLoads: [LoadID?] = []
        var endID: LoadID?
        var opened = 0
        for await record in records {
            if case .uriLoaded = record.event { uriLoads.append(record.loadID) }
            if case .stateChanged(_, .opening) = record.event { opened += 1 }
            if case .endOfStream = record.event { endID = record.loadID; break }
        }
        XCTAssertEqual(opened, 1, "gapless: one load, the second item handed over")
        XCTAssertEqual(uriLoads.count, 2, "two items")
        XCTAssertEqual(Set(uriLoads.compactMap { $0 }).count, 2, "a new ID for the item handed over gaplessly: \(uriLoads)")
        XCTAssertEqual(endID, uriLoads.last ?? nil, "the end belongs to the last item")
    }

    /// A feature that makes the first load wait (``LoadDecision/wait``) and loads it again itself
    /// on the next loop dispatch, as the media cache does while it revalidates a copy.
    private final class DeferringFeature: PlayerFeature {
        private let context = Mutex<FeatureContext?>(nil)
        let deferred = Mutex(0)

        func attach(to context: FeatureContext) { self.context.withLock { $0 = context } }

        func willLoad(_ uri: String) -> LoadDecision {
            guard uri.hasPrefix("file:"), deferred.withLock({ $0 == 0 }), let context = context.withLock({ $0 }) else { return .play(uri) }
            deferred.withLock { $0 += 1 }
            context.runOnLoop { context.load(uri) }
            return .wait
        }
    }

    func testALoadAFeatureDefersIsWaitedForNotFailedWithThePreviousError() async throws {
        let feature = DeferringFeature()
        let player = Player(configuration: .fakeSinks(sync: true), features: [feature])
        defer { player.shutdown() }
        do {
            try await player.loadAsync("")
            XCTFail("an empty location loaded")
        } catch {
            XCTAssertEqual(error.kind, .invalidInput)
        }
        let id = try await player.loadAsync(TestMedia.vp8)       // deferred once, after a failed load
        XCTAssertEqual(feature.deferred.withLock { $0 }, 1)
        XCTAssertEqual(id, LoadID(rawValue: 2), "the failed load was the first; the deferred one began once")
        XCTAssertEqual(player.snapshot.lastError, nil)
    }

    func testTheDelegateGetsEachEventWithItsLoadID() async throws {
        final class Delegate: PlayerDelegate, Sendable {
            let seen = Arrivals<(LoadID?, PlayerEvent)>()
            func player(_ player: Player, didReceive event: PlayerEvent, loadID: LoadID?) { seen.append((loadID, event)) }
        }
        let delegate = Delegate()
        let player = Player.forTesting(delegate) { $0.autoplay = false }
        defer { player.shutdown() }
        let id = try await player.loadAsync(TestMedia.vp8)
        let loaded = delegate.seen.wait { $0.contains { if case .mediaInfo = $0.1 { return true } else { return false } } }
        XCTAssertTrue(loaded)
        let seen = delegate.seen.all
        let uriLoaded = seen.first { if case .uriLoaded = $0.1 { return true } else { return false } }
        XCTAssertEqual(uriLoaded?.0, id)
        XCTAssertEqual(seen.first?.0, nil, "initialized comes before any load")
    }
}
