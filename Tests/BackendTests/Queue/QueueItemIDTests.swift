@testable import BackendCore
@testable import BackendQueue
import Backend
import Foundation
import TestSupport
import XCTest

/// Queue items get an id when they are added, kept while they stay in the queue
/// and never reused; `itemChanged` names it; `currentQueue()` awaits earlier commands. Real
/// `playbin` (autoplay off: the tests look at the queue, not at playback).
final class QueueItemIDTests: XCTestCase {
    private var items: [QueueItem] { GaplessTests.fixtures.map { QueueItem(uri: try! MediaLocation.uri(for: $0)) } }

    func testIdsAreAssignedOnAddKeptOnMoveAndNeverReused() async throws {
        let recorder = EventRecorder()
        let player = Player.forTesting(recorder, sync: false) { $0.autoplay = false }
        defer { player.shutdown() }
        XCTAssertTrue(items.allSatisfy { $0.id == nil }, "an item not in a queue has no id")
        try player.setQueue(items)
        let first = await player.currentQueue()
        let ids = first.items.compactMap(\.id)
        XCTAssertEqual(ids.count, 3)
        XCTAssertEqual(Set(ids).count, 3, "one id per item: \(ids)")
        try player.moveInQueue(from: 2, to: 0)
        let moved = await player.currentQueue()
        XCTAssertEqual(moved.items.map(\.id), [ids[2], ids[0], ids[1]], "ids move with their items")
        try player.jumpInQueue(to: 1)
        recorder.waitFor("the jump's itemChanged") { $0.contains { $0.itemChange?.index == 1 } }
        let change = recorder.events.lazy.compactMap { event -> (Int, Int)? in
            if case .itemChanged(let index, let id, _)? = event.payload(as: QueueEvent.self) { return (index, id) } else { return nil }
        }.first
        XCTAssertEqual(change?.0, 1)
        XCTAssertEqual(change?.1, ids[0], "itemChanged carries the id of the item at that index")
        try player.setQueue(items)
        player.appendToQueue([items[0]])
        let replaced = await player.currentQueue()
        let newIDs = replaced.items.compactMap(\.id)
        XCTAssertEqual(newIDs.count, 4)
        XCTAssertTrue(Set(newIDs).isDisjoint(with: ids), "a new queue does not reuse ids: \(ids) then \(newIDs)")
        // The items' media info is found in the background and may land between the two reads: compare the rest.
        func withoutInfo(_ queue: QueueSnapshot?) -> QueueSnapshot? {
            guard var queue else { return nil }
            for index in queue.items.indices { queue.items[index].info = nil }
            return queue
        }
        XCTAssertEqual(withoutInfo(player.queue), withoutInfo(replaced), "the snapshot section is what currentQueue() returned")
        XCTAssertEqual(withoutInfo(player.snapshot.features[QueueSnapshot.self]), withoutInfo(replaced))
    }

    func testCurrentQueueAfterShutdownAnswersTheLastState() async throws {
        let recorder = EventRecorder()
        let player = Player.forTesting(recorder, sync: false) { $0.autoplay = false }
        try player.setQueue(items)
        let before = await player.currentQueue()
        player.shutdown()
        let after = await player.currentQueue()
        XCTAssertEqual(after, before, "no waiting once the player is shut down")
        XCTAssertEqual(after.items.count, 3)
    }

    func testPlayQueueIdsContinueFromTheFirstIDAndSurviveAReseed() throws {
        var queue = PlayQueue(items: items, firstID: 10)
        XCTAssertEqual(queue.items.map(\.id), [10, 11, 12])
        queue.append(items[0])
        XCTAssertEqual(queue.items.last?.id, 13)
        try queue.jump(to: 2)
        var reseeded = PlayQueue(reseeding: queue, seed: 99)
        XCTAssertEqual(reseeded.items.map(\.id), [10, 11, 12, 13])
        XCTAssertEqual(reseeded.currentIndex, 2, "the current item stays current")
        reseeded.setShuffled(true)
        XCTAssertEqual(reseeded.currentIndex, 2, "a new pass starts at the current item")
        XCTAssertEqual(try queue.remove(at: 0).item.id, 10)
    }
}
