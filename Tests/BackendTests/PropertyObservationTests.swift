import Backend
import Foundation
import Synchronization
import TestSupport
import XCTest

/// Named properties observed as libmpv's are: the current value first, then each change, read
/// from the one snapshot every door reads. Real `playbin` on the fixtures.
final class PropertyObservationTests: XCTestCase {
    /// Collects a stream's values on a task of its own, so the test can act meanwhile.
    private final class Collected<Value: Sendable>: Sendable {
        private let values = Mutex<[Value]>([])
        private let task: Mutex<Task<Void, Never>?> = Mutex(nil)

        init(_ stream: AsyncStream<Value>) {
            task.withLock { $0 = Task { [self] in for await value in stream { self.append(value) } } }
        }

        private func append(_ value: Value) { values.withLock { $0.append(value) } }
        var all: [Value] { values.withLock { $0 } }
        func stop() { task.withLock { $0?.cancel() } }
    }

    func testVolumePauseAndTimePosArriveFirstAsTheyAreThenAtEachChange() async throws {
        let player = Player.forTesting()
        defer { player.shutdown() }
        let volume = Collected(player.observe(\.volume))
        let pause = Collected(try player.observe(named: "pause"))
        let time = Collected(try player.observe(named: "time-pos"))
        defer { volume.stop(); pause.stop(); time.stop() }
        XCTAssertTrue(eventually { volume.all == [1] && pause.all == [.flag(false)] && time.all == [.none] },
                      "the current values first: \(volume.all) \(pause.all) \(time.all)")

        try await player.waitFor("playing", where: { $0.newState == .playing }) { player.load(TestMedia.vp8) }
        player.setVolume(0.3)
        XCTAssertTrue(eventually { volume.all.last == 0.3 }, "\(volume.all)")
        try await player.waitFor("paused", where: { $0.newState == .paused }) { player.pause() }
        XCTAssertTrue(eventually { pause.all.last == .flag(true) }, "\(pause.all)")
        player.play()
        XCTAssertTrue(eventually(timeout: .seconds(5)) {
            let seconds = time.all.compactMap { value -> Double? in if case .number(let s) = value { s } else { nil } }
            return seconds.count >= 3 && seconds.last! > 0.5
        }, "time-pos advances: \(time.all)")
        let seconds = time.all.compactMap { value -> Double? in if case .number(let s) = value { s } else { nil } }
        XCTAssertEqual(seconds, seconds.sorted(), "positions in order while playing on")
        XCTAssertEqual(volume.all, [1, 0.3], "each change once, no repeats of an unchanged value")
    }

    func testPlaylistPosAndChapterFollowTheQueueAndTheChapters() async throws {
        let player = Player.forTesting()
        defer { player.shutdown() }
        let position = Collected(try player.observe(named: "playlist-pos"))
        let chapter = Collected(try player.observe(named: "chapter"))
        defer { position.stop(); chapter.stop() }
        XCTAssertTrue(eventually { position.all == [.integer(-1)] && chapter.all == [.none] }, "\(position.all) \(chapter.all)")
        let uris = try [TestMedia.path("chapters.mkv"), TestMedia.vp8].map { try MediaLocation.uri(for: $0) }
        try player.setQueue(uris.map { QueueItem(uri: $0) })
        XCTAssertTrue(eventually(timeout: .seconds(10)) { chapter.all.contains(.integer(0)) }, "the first chapter: \(chapter.all)")
        player.seek(to: MediaTime(seconds: 4.5))
        XCTAssertTrue(eventually(timeout: .seconds(10)) { chapter.all.contains { if case .integer(let n) = $0 { n > 0 } else { false } } },
                      "a later chapter after the seek: \(chapter.all)")
        player.advanceToNextItem()
        XCTAssertTrue(eventually(timeout: .seconds(10)) { position.all.last == .integer(1) }, "\(position.all)")
        XCTAssertEqual(Array(position.all.prefix(2)), [.integer(-1), .integer(0)])
    }

    func testNamesAreCheckedAndSetReadsBackAtOnce() throws {
        let player = Player.forTesting()
        defer { player.shutdown() }
        XCTAssertThrowsError(try player.observe(named: "no-such-property")) { error in
            XCTAssertEqual((error as? PlayerError)?.message, "no property 'no-such-property'")
        }
        XCTAssertThrowsError(try player.set("duration", to: .number(3))) { error in
            XCTAssertEqual((error as? PlayerError)?.kind, .invalidArgument)
        }
        XCTAssertThrowsError(try player.set("speed", to: .number(0)))
        try player.set("volume", to: .number(50))
        XCTAssertEqual(try player.value(named: "volume"), .number(50), "mpv's percent, read back at once")
        try player.set("speed", to: .number(1.25))
        XCTAssertEqual(try player.value(named: "speed"), .number(1.25))
        try player.set("mute", to: .flag(true))
        XCTAssertEqual(player.value(of: .mute), .flag(true))
        XCTAssertEqual(Set(PlayerProperty.standard.map(\.name)).count, PlayerProperty.standard.count, "one name, one property")
    }
}
