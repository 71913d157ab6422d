@testable import BackendCore
import Backend
import Foundation
import TestSupport
import XCTest

/// Commands with results on real pipelines with real-time fake sinks:
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

    func testLoadAsyncThrowsTheLoadsError() async {
        let player = pausedPlayer()
        defer { player.shutdown() }
        await player.assertLoadFails("", kind: .invalidInput)
        await player.assertLoadFails(TestMedia.path("does-not-exist.mp4"), kind: .resource)
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
}
