import Backend
import Foundation
import TestSupport
import XCTest

/// The player's state lives in one place every door reads: a setter's value is in
/// ``Player/snapshot`` as soon as the setter returns (from any thread, before the loop thread has
/// applied it), the engine's outcome replaces it, and a new item — also one handed over
/// gaplessly — keeps no field of the previous one. Real `playbin` on the fixtures.
final class OneStateTests: XCTestCase {
    func testASetterIsReadBackAtOnceAndTheAppliedValueStays() async throws {
        let player = Player.forTesting()
        defer { player.shutdown() }
        try await player.waitFor("playing", where: { $0.newState == .playing }) { player.load(TestMedia.vp8) }

        let events = player.events
        player.setVolume(0.3)
        XCTAssertEqual(player.snapshot.volume, 0.3, "the volume is read back before the loop thread applied it")
        try? player.setRate(1.5)
        XCTAssertEqual(player.snapshot.rate, 1.5, "the rate is read back at once")
        XCTAssertTrue(player.toggleMuted())
        XCTAssertTrue(player.snapshot.muted, "the mute flag is read back at once")
        XCTAssertFalse(player.toggleMuted(), "a second toggle steps from the first one, not from the loop's value")
        // The engine applies them in order: the last toggle's event comes after all the others.
        var applied: [String] = []
        let deadline = ContinuousClock.now + .seconds(10)
        for await event in events {
            switch event {
            case .volumeChanged(let volume, let muted): applied.append("volume \(volume) muted \(muted)")
            case .rateChanged(let rate): applied.append("rate \(rate)")
            default: break
            }
            if applied.count == 4 || ContinuousClock.now > deadline { break }
        }
        XCTAssertEqual(applied, ["volume 0.3 muted false", "rate 1.5", "volume 0.3 muted true", "volume 0.3 muted false"])
        XCTAssertEqual(player.snapshot.volume, 0.3)
        XCTAssertEqual(player.snapshot.rate, 1.5)
        XCTAssertFalse(player.snapshot.muted)
    }

    func testThePauseIsTheUsersIntentReadAtOnceAndKeptThroughASeek() async throws {
        let player = Player.forTesting()
        defer { player.shutdown() }
        try await player.waitFor("playing", where: { $0.newState == .playing }) { player.load(TestMedia.vp8) }
        XCTAssertFalse(player.snapshot.pauseRequested)
        try await player.waitFor("paused", where: { $0.newState == .paused }) {
            player.pause()
            XCTAssertTrue(player.snapshot.pauseRequested, "the pause is read back before the loop thread ran it")
        }
        var states: [PlayerState] = []
        var pausedThroughout = true
        _ = try await player.waitForValue("the seek's landing", { event -> Bool? in
            if case .seekDone = event { return true } else { return nil }
        }, after: {
            player.seek(to: MediaTime(seconds: 2))
            XCTAssertTrue(player.snapshot.pauseRequested, "a seek leaves the intent alone")
        })
        for _ in 0..<20 where pausedThroughout {
            pausedThroughout = player.snapshot.pauseRequested
            states.append(player.snapshot.state)
            try await Task.sleep(for: .milliseconds(10))
        }
        XCTAssertTrue(pausedThroughout, "still the user's pause after the seek: \(states)")
        XCTAssertEqual(player.value(of: .pause), .flag(true), "mpv's pause is the intent")
        try await player.waitFor("playing again", where: { $0.newState == .playing }) {
            player.togglePause()
            XCTAssertFalse(player.snapshot.pauseRequested, "a toggle is read back at once")
        }
    }

    func testClampedAndOutOfRangeValuesAreNeverRecorded() throws {
        let player = Player.forTesting()
        defer { player.shutdown() }
        player.setVolume(42)
        XCTAssertEqual(player.snapshot.volume, 10, "the clamped value, not the asked one")
        player.setVolume(.nan)
        XCTAssertEqual(player.snapshot.volume, 1)
        XCTAssertThrowsError(try player.setRate(0))
        XCTAssertEqual(player.snapshot.rate, 1, "a refused rate is not recorded")
        player.shutdown()
        player.setVolume(0.5)
        XCTAssertEqual(player.snapshot.volume, 1, "nothing is recorded once shut down (no command runs)")
    }

    func testAGaplessHandOverKeepsNoFieldOfThePreviousItem() async throws {
        let player = Player.forTesting()
        defer { player.shutdown() }
        let records = player.records
        let uris = try GaplessTests.fixtures.prefix(2).map { try MediaLocation.uri(for: $0) }
        try player.setQueue(uris.map { QueueItem(uri: $0) })
        var states: [PlayerState] = []
        var pointSet = false
        let deadline = ContinuousClock.now + .seconds(20)
        for await record in records {
            guard ContinuousClock.now < deadline else { return XCTFail("the second item did not play in time: \(states)") }
            if case .stateChanged(_, let new) = record.event { states.append(new) }
            if case .position = record.event, record.snapshot.uri == uris[0], !pointSet {
                try player.setABLoop(a: MediaTime(seconds: 0.1), b: nil)      // an A point alone loops nothing
                pointSet = true
            }
            if case .abLoopChanged(let loop) = record.event { XCTAssertEqual(loop.a, MediaTime(seconds: 0.1)) }
            if case .position(let position, _) = record.event, record.snapshot.uri == uris[1],
               position > MediaTime(seconds: 0.3) { break }
        }
        XCTAssertEqual(states.filter { $0 == .opening }.count, 1, "handed over gaplessly (one opening): \(states)")
        let snapshot = player.snapshot
        XCTAssertEqual(snapshot.uri, uris[1])
        XCTAssertNil(snapshot.abLoop.a, "the first item's A point is gone")
        XCTAssertNil(snapshot.mediaSize)
        XCTAssertTrue(snapshot.isSeekable, "the new item's seekability was read again")
        XCTAssertEqual(snapshot.duration?.seconds ?? 0, 1, accuracy: 0.05, "the new item's duration")
    }
}
