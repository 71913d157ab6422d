@testable import BackendCore
@testable import BackendQueue
import Backend
import Foundation
import TestSupport
import XCTest

/// The queue settings a frontend such as gstplay needs: items that stop at their
/// end (`--keep-open`), a start position for every item (`--start`), "play this now" (`load`),
/// and the next/previous indexes in the snapshot — on real `playbin` pipelines.
final class QueueOptionsTests: XCTestCase {
    private var items: [QueueItem] { GaplessTests.fixtures.map { QueueItem(uri: try! MediaLocation.uri(for: $0)) } }

    private func changes(_ recorder: EventRecorder) -> [String] {
        recorder.events.compactMap(\.itemChange).map { "\($0.index):\($0.reason.rawValue)" }
    }

    func testWithoutAutomaticAdvancingEachItemEndsThereAndNextMovesOn() async throws {
        let recorder = EventRecorder()
        let player = Player.forTesting(recorder, sync: false)
        defer { player.shutdown() }
        player.setAdvancesAutomatically(false)
        try player.setQueue(items)
        recorder.waitFor("the first item's end", timeout: 15) { $0.contains(where: \.isEndOfStream) }
        XCTAssertEqual(changes(recorder), [], "no hand-over, no automatic move; the first item is not a skip")
        let queue = await player.currentQueue()
        XCTAssertEqual(queue.currentIndex, 0)
        XCTAssertEqual(queue.nextIndex, 1)
        XCTAssertNil(queue.previousIndex)
        player.advanceToNextItem()
        recorder.waitFor("the second item's end", timeout: 15) { $0.filter(\.isEndOfStream).count >= 2 }
        XCTAssertEqual(changes(recorder), ["1:skipped"])
        let after = await player.currentQueue()
        XCTAssertEqual(after.previousIndex, 0)
    }

    func testAStartForEveryItemIsHonouredAndItemsLoadAfresh() throws {
        let recorder = EventRecorder()
        let player = Player.forTesting(recorder, sync: false)
        defer { player.shutdown() }
        player.setQueueItemStart(.time(.milliseconds(500)))
        try player.setQueue(Array(items.prefix(2)))
        recorder.waitFor("the end of the queue", timeout: 15) { $0.contains(where: \.isEndOfStream) }
        XCTAssertEqual(changes(recorder), ["1:ended"])
        XCTAssertEqual(recorder.states().filter { $0 == .opening }.count, 2, "not handed over gaplessly")
        let landed = recorder.events.compactMap { if case .seekDone(let at) = $0 { return at.seconds } else { return nil } }
        XCTAssertEqual(landed.count, 2, "one start seek per item: \(landed)")
        for position in landed { XCTAssertEqual(position, 0.5, accuracy: 0.05) }
    }

    func testPlayNowInsertsAfterTheCurrentItemAsTheQueueStandsThen() async throws {
        let recorder = EventRecorder()
        let player = Player.forTesting(recorder, sync: false)
        defer { player.shutdown() }
        player.setAdvancesAutomatically(false)
        try player.setQueue(Array(items.prefix(2)))
        player.advanceToNextItem()
        player.playNow(items[2])                 // after item 1, which the queue reaches just before
        let queue = await player.currentQueue()
        XCTAssertEqual(queue.items.map(\.uri), [items[0].uri, items[1].uri, items[2].uri])
        XCTAssertEqual(queue.currentIndex, 2)
        recorder.waitFor("the inserted item loads") { $0.contains { if case .uriLoaded(let uri) = $0 { uri == self.items[2].uri } else { false } } }
        XCTAssertEqual(changes(recorder), ["1:skipped", "2:skipped"])
    }

    func testSnapshotNamesTheNextAndPreviousItems() throws {
        var queue = PlayQueue(items: items)
        queue.advance()
        XCTAssertEqual(queue.snapshot(gapless: true).nextIndex, 1)
        XCTAssertNil(queue.snapshot(gapless: true).previousIndex)
        try queue.jump(to: 2)
        XCTAssertNil(queue.snapshot(gapless: true).nextIndex, "the end without loop")
        XCTAssertEqual(queue.snapshot(gapless: true).previousIndex, 1)
        queue.loop = .all
        XCTAssertEqual(queue.snapshot(gapless: true).nextIndex, 0, "wraps with loop all")
        queue.loop = .one
        XCTAssertNil(queue.snapshot(gapless: true).nextIndex, "skipping from the last item with loop one stops")
        XCTAssertEqual(queue.currentIndex, 2, "peeking does not move")
    }
}
