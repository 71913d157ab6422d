@testable import BackendCore
@testable import BackendQueue
import Backend
import Foundation
import TestSupport
import XCTest

/// Gapless hand-overs of items so short that playbin asks for the next one (`about-to-finish`,
/// streaming thread) before the loop thread has handled the previous hand-over's
/// `STREAM_START`: each item must still be handed over, and played, exactly once and in order.
/// (Seen before the fix: an item handed to playbin twice, e.g. 440, 660, 880, 880, …)
final class GaplessRaceTests: XCTestCase {
    /// Writes `count` Vorbis files of 0.1 s each (different tones) with `gst-launch-1.0`.
    static func makeShortItems(count: Int) throws -> [QueueItem] {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("gapless-race-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return try (0..<count).map { index in
            let path = directory.appendingPathComponent("item-\(index).ogg").path
            let launch = Process()
            launch.executableURL = URL(fileURLWithPath: "/usr/bin/gst-launch-1.0")
            launch.arguments = ["-q", "audiotestsrc", "num-buffers=5", "samplesperbuffer=960", "freq=\(300 + 100 * index)", "!",
                                "audio/x-raw,rate=48000,channels=1", "!", "vorbisenc", "!", "oggmux", "!", "filesink", "location=\(path)"]
            try launch.run()
            launch.waitUntilExit()
            XCTAssertEqual(launch.terminationStatus, 0, "gst-launch-1.0 wrote \(path)")
            return QueueItem(uri: try MediaLocation.uri(for: path))
        }
    }

    /// A delegate on the loop thread that is slow with every event, so bus messages pile up
    /// behind it and the streaming thread's hand-overs overtake the loop's bookkeeping.
    final class SlowDelegate: PlayerDelegate, Sendable {
        let recorder = EventRecorder()
        func player(_ player: Player, didReceive event: PlayerEvent) {
            recorder.player(player, didReceive: event)
            usleep(30_000)
        }
    }

    func testShortItemsAreEachHandedOverOnceInOrder() throws {
        let items = try Self.makeShortItems(count: 8)
        for round in 1...6 {
            let slow = SlowDelegate(), recorder = slow.recorder
            let player = Player.forTesting(slow, sync: round % 2 == 0)
            defer { player.shutdown() }
            try player.setQueue(items)
            recorder.waitFor("EOS after the last item (round \(round))", timeout: 20) { $0.contains(where: \.isEndOfStream) }
            let uris = recorder.events.compactMap { if case .uriLoaded(let u) = $0 { return u } else { return nil } }
            XCTAssertEqual(uris.map { items.map(\.uri).firstIndex(of: $0) ?? -1 }, Array(0..<items.count),
                           "round \(round): every item once, in order")
            XCTAssertEqual(recorder.events.filter(\.isEndOfStream).count, 1)
        }
    }
}
