import Backend
import Foundation
import TestSupport
import XCTest

/// `EventRecorder.waitFor`'s predicate may block on the player's loop thread (a getter such as
/// `currentPosition()` waits for it) while that thread delivers an event to the recorder. The
/// predicate used to run with the recorder's condition lock held, and delivery takes that lock:
/// a lock-order deadlock, seen as a hung `SubtitleCueTests` under `swift test --sanitize=address`
/// (2026-11-25). Here an event is delivered from another thread while the predicate runs.
final class EventRecorderWaitTests: XCTestCase {
    func testAnEventDeliveredWhileThePredicateRunsDoesNotBlock() {
        let recorder = EventRecorder()
        let player = Player.forTesting(recorder)
        defer { player.shutdown() }
        recorder.waitFor("initialized") { $0.contains { if case .initialized = $0 { true } else { false } } }
        let delivered = DispatchSemaphore(value: 0)
        var started = false
        let marker = MediaTime(seconds: 123)
        recorder.waitFor("the event delivered from inside the predicate", timeout: 5) { events in
            if !started {
                started = true
                Thread.detachNewThread {
                    recorder.player(player, didReceive: .endOfStream(position: marker))
                    delivered.signal()
                }
                XCTAssertEqual(delivered.wait(timeout: .now() + 2), .success,
                               "delivering an event blocked while a waiter's predicate ran")
            }
            return events.contains { if case .endOfStream(marker) = $0 { true } else { false } }
        }
    }
}
