@testable import BackendCore
@testable import BackendQueue
import Backend
import Foundation
import TestSupport
import XCTest

extension PlayerEvent {
    var itemChange: (index: Int, reason: ItemChangeReason)? {
        if case .itemChanged(let index, _, let reason)? = payload(as: QueueEvent.self) { return (index, reason) } else { return nil }
    }
    var queueChange: QueueSnapshot? {
        if case .queueChanged(let queue)? = payload(as: QueueEvent.self) { return queue } else { return nil }
    }
    var itemEnd: (index: Int, id: Int, position: MediaTime)? {
        if case .itemEnded(let index, let id, let position)? = payload(as: QueueEvent.self) { return (index, id, position) } else { return nil }
    }
}

/// The queue through ``Player`` on real `playbin` pipelines with the gapless fixtures.
final class QueuePlayerTests: XCTestCase {
    private var items: [QueueItem] { GaplessTests.fixtures.map { QueueItem(uri: try! MediaLocation.uri(for: $0)) } }

    private func changes(_ recorder: EventRecorder) -> [String] {
        recorder.events.compactMap(\.itemChange).map { "\($0.index):\($0.reason.rawValue)" }
    }

    func testGaplessQueuePlaysThreeItemsWithOneEndOfStream() throws {
        let recorder = EventRecorder()
        let player = Player.forTesting(recorder)
        defer { player.shutdown() }
        try player.setQueue(items)
        recorder.waitFor("EOS after the last item", timeout: 15) { $0.contains(where: \.isEndOfStream) }
        XCTAssertEqual(changes(recorder), ["1:ended", "2:ended"])
        XCTAssertEqual(recorder.events.filter(\.isEndOfStream).count, 1)
        try assertEachItemEnds(recorder, before: [1, 2])
        let states = recorder.states()
        XCTAssertEqual(states.filter { $0 == .opening }.count, 1, "gapless: one load, no reopening between items: \(states)")
        let uris = recorder.events.compactMap { if case .uriLoaded(let u) = $0 { return u } else { return nil } }
        XCTAssertEqual(uris, items.map(\.uri))
        // After each gapless switch the position starts again near 0 for the new item.
        let index1 = try XCTUnwrap(recorder.events.firstIndex { $0.itemChange?.index == 1 })
        let nextPosition = try XCTUnwrap(recorder.events[index1...].compactMap(\.position).first)
        XCTAssertLessThan(nextPosition.seconds, 0.5, "position restarts for the new item: \(recorder.events[index1...].compactMap(\.position).prefix(4))")
        guard case .endOfStream(let final)? = recorder.events.last(where: \.isEndOfStream) else { return XCTFail() }
        XCTAssertEqual(final.seconds, 1.0, accuracy: 0.1, "final position is the last item's end")
        XCTAssertEqual(player.queue.currentIndex, 2)
    }

    func testWithoutGaplessItemsAreLoadedOneAfterAnother() throws {
        let recorder = EventRecorder()
        let player = Player.forTesting(recorder, sync: false)
        defer { player.shutdown() }
        player.setGapless(false)
        try player.setQueue(items)
        recorder.waitFor("EOS after the last item", timeout: 15) { $0.contains(where: \.isEndOfStream) }
        XCTAssertEqual(changes(recorder), ["1:ended", "2:ended"])
        XCTAssertEqual(recorder.states().filter { $0 == .opening }.count, 3)
        XCTAssertEqual(recorder.events.filter(\.isEndOfStream).count, 1)
        try assertEachItemEnds(recorder, before: [1, 2])
    }

    /// Every item the queue moved on from after its end has an `itemEnded` (its id,
    /// its duration as the position), right before the `itemChanged` of the item after it.
    private func assertEachItemEnds(_ recorder: EventRecorder, before next: [Int], file: StaticString = #filePath,
                                    line: UInt = #line) throws {
        let events = recorder.events
        let ends = events.indices.filter { events[$0].itemEnd != nil }
        XCTAssertEqual(ends.count, next.count, "one end per item moved on from: \(events)", file: file, line: line)
        let ids = itemIDs(in: events)
        for (end, index) in zip(ends, next) {
            let ended = try XCTUnwrap(events[end].itemEnd)
            XCTAssertEqual(events[end + 1].itemChange?.index, index, "the next item follows its end", file: file, line: line)
            XCTAssertEqual(ended.index, index - 1, file: file, line: line)
            XCTAssertEqual(ended.id, ids[index - 1], "the ended item's id", file: file, line: line)
            XCTAssertEqual(ended.position.seconds, 1.0, accuracy: 0.1, "the item's duration", file: file, line: line)
        }
    }

    /// The ids of the items as the last `queueChanged` lists them.
    private func itemIDs(in events: [PlayerEvent]) -> [Int?] {
        events.last { $0.queueChange != nil }?.queueChange?.items.map(\.id) ?? []
    }

    func testLoopOneRepeatsTheItem() throws {
        let recorder = EventRecorder()
        let player = Player.forTesting(recorder, sync: false)
        defer { player.shutdown() }
        player.setLoopMode(.one)
        try player.setQueue(items, startingAt: 1)
        recorder.waitFor("three repeats") { $0.compactMap(\.itemChange).count >= 3 }
        player.shutdown()
        let seen = changes(recorder)
        XCTAssertEqual(Array(seen.prefix(3)), ["1:ended", "1:ended", "1:ended"], "starting at item 1 skips nothing")
        XCTAssertFalse(recorder.events.contains(where: \.isEndOfStream))
    }

    func testShuffleLoopAllVisitsEachItemOncePerPass() throws {
        let recorder = EventRecorder()
        let player = Player.forTesting(recorder, sync: false)
        defer { player.shutdown() }
        player.setLoopMode(.all)
        player.setShuffled(true, seed: 1234)
        try player.setQueue(items)
        recorder.waitFor("three passes", timeout: 20) { $0.compactMap(\.itemChange).count >= 8 }
        player.shutdown()
        // The first item has no itemChanged (nothing was skipped); the first queueChanged names it.
        let first = recorder.events.lazy.compactMap { $0.queueChange?.currentIndex }.first
        let visited = Array(([first].compactMap { $0 } + recorder.events.compactMap(\.itemChange).map(\.index)).prefix(9))
        let passes = stride(from: 0, to: 9, by: 3).map { Array(visited[$0..<$0 + 3]) }
        for pass in passes { XCTAssertEqual(pass.sorted(), [0, 1, 2], "each item once per pass: \(visited)") }
        XCTAssertGreaterThan(Set(passes).count, 1, "passes are reshuffled: \(passes)")
    }

    func testAFailingItemIsReportedAndSkipped() throws {
        let recorder = EventRecorder()
        let player = Player.forTesting(recorder, sync: false)
        defer { player.shutdown() }
        let missing = QueueItem(uri: "file:///nonexistent/gstplay-missing.ogg")
        try player.setQueue([items[0], missing, items[2]])
        recorder.waitFor("EOS after the last item", timeout: 15) { $0.contains(where: \.isEndOfStream) }
        let errors = recorder.events.compactMap(\.error)
        XCTAssertEqual(errors.count, 1)
        XCTAssertEqual(errors.first?.uri, missing.uri, "the error names the failing item")
        XCTAssertEqual(changes(recorder), ["1:ended", "2:error"])
    }

    func testAnUndecodableItemHandedOverGaplesslyIsReportedAndSkipped() throws {
        let recorder = EventRecorder()
        let player = Player.forTesting(recorder, sync: false)
        defer { player.shutdown() }
        let garbage = QueueItem(uri: try MediaLocation.uri(for: TestMedia.garbage))
        // The path of an item not discovered in time (a discovered one is skipped before its
        // turn: QueueDiscoveryTests); the hand-over itself is what is tested here.
        player.setQueueDiscovery(false)
        try player.setQueue([items[0], garbage, items[2]])
        recorder.waitFor("EOS after the last item", timeout: 15) { $0.contains(where: \.isEndOfStream) }
        XCTAssertEqual(recorder.events.compactMap(\.error).map(\.uri), [garbage.uri])
        XCTAssertEqual(changes(recorder), ["1:ended", "2:error"])
    }

    func testVideoItemsAreNotHandedOverAndPlayThrough() throws {
        let recorder = EventRecorder()
        let player = Player.forTesting(recorder, sync: false)
        defer { player.shutdown() }
        let clip = QueueItem(uri: try MediaLocation.uri(for: TestMedia.short))
        try player.setQueue([clip, clip, clip])
        recorder.waitFor("EOS after the last item", timeout: 15) { $0.contains(where: \.isEndOfStream) }
        XCTAssertEqual(changes(recorder), ["1:ended", "2:ended"])
        XCTAssertEqual(recorder.states().filter { $0 == .opening }.count, 3, "each video item is loaded afresh")
    }

    func testEditsJumpAndOutOfRangeErrors() throws {
        let recorder = EventRecorder()
        let player = Player.forTesting(recorder, sync: false) { $0.autoplay = false }
        defer { player.shutdown() }
        try player.setQueue(items)
        recorder.waitFor("queue published") { $0.contains { $0.queueChange?.items.count == 3 } }
        XCTAssertThrowsError(try player.jumpInQueue(to: 99)) { XCTAssertEqual($0 as? QueueError, .indexOutOfRange(index: 99, count: 3)) }
        XCTAssertThrowsError(try player.moveInQueue(from: 0, to: 3))
        XCTAssertThrowsError(try player.removeFromQueue(at: -1))
        try player.moveInQueue(from: 2, to: 0)
        try player.jumpInQueue(to: 0)
        recorder.waitFor("jump") { $0.contains { $0.itemChange?.index == 0 && $0.itemChange?.reason == .skipped } && $0.count > 0 }
        recorder.waitFor("moved item current") { _ in player.queue.currentIndex == 0 && player.queue.items.first?.uri == self.items[2].uri }
        try player.removeFromQueue(at: 0)
        recorder.waitFor("removed current → next plays") { _ in player.queue.items.count == 2 && player.queue.currentIndex == 0 }
        XCTAssertEqual(player.snapshot.uri, items[0].uri)
        player.clearQueue()
        recorder.waitFor("cleared") { _ in player.queue.items.isEmpty }
        recorder.waitFor("stopped") { recorder.reachedState(.idle)($0) }
    }
}
