@testable import BackendCore
@testable import BackendQueue
import Backend
import XCTest

/// ``PlayQueue`` as pure logic: editing, moving, loop modes, seeded shuffle passes, errors.
final class PlayQueueTests: XCTestCase {
    private func items(_ n: Int) -> [QueueItem] { (0..<n).map { QueueItem(uri: "file:///m/\($0).ogg", title: "t\($0)") } }
    private func uris(_ q: PlayQueue) -> [String] { q.items.map(\.uri) }
    private func name(_ q: PlayQueue, _ index: Int?) -> String? { index.map { q.items[$0].uri } }

    func testStartsBeforeTheFirstItemAndAdvancesInListOrder() {
        var q = PlayQueue(items: items(3))
        XCTAssertNil(q.currentIndex)
        XCTAssertEqual(q.advance(), 0)
        XCTAssertEqual(q.advance(), 1)
        XCTAssertEqual(q.advance(), 2)
        XCTAssertNil(q.advance(), "loop none stops after the last item")
        XCTAssertNil(q.currentIndex)
    }

    func testLoopAllWrapsBothWays() {
        var q = PlayQueue(items: items(3), loop: .all)
        XCTAssertEqual(q.advance(), 0)
        XCTAssertEqual(q.previous(), 2, "previous at the first item wraps to the last")
        XCTAssertEqual(q.advance(), 0, "next at the last item wraps to the first")
    }

    func testPreviousWithoutLoopStaysAtTheFirstItem() {
        var q = PlayQueue(items: items(3))
        q.advance()
        XCTAssertNil(q.previous())
        XCTAssertEqual(q.currentIndex, 0)
        q.advance(); q.advance()
        XCTAssertEqual(q.previous(), 1)
    }

    func testLoopOneRepeatsOnEndButSkipMovesOn() {
        var q = PlayQueue(items: items(3), loop: .one)
        XCTAssertEqual(q.advance(), 0)
        for _ in 0..<5 { XCTAssertEqual(q.advance(reason: .ended), 0) }
        XCTAssertEqual(q.advance(reason: .skipped), 1)
        XCTAssertEqual(q.advance(reason: .error), 2, "a failed item is not repeated")
        XCTAssertNil(q.advance(reason: .skipped), "skipping past the last item stops")
    }

    func testPeekNextDoesNotMove() {
        var q = PlayQueue(items: items(3), loop: .all)
        q.advance(); q.advance(); q.advance()
        XCTAssertEqual(q.peekNext(), 0)
        XCTAssertEqual(q.currentIndex, 2)
    }

    func testInsertAppendAndCurrentFollowsItsItem() throws {
        var q = PlayQueue(items: items(2))
        q.advance(); q.advance() // current = 1
        try q.insert(QueueItem(uri: "x"), at: 0)
        XCTAssertEqual(q.currentIndex, 2, "the current item keeps being current after an insert before it")
        q.append(QueueItem(uri: "y"))
        XCTAssertEqual(uris(q), ["x", "file:///m/0.ogg", "file:///m/1.ogg", "y"])
        XCTAssertEqual(q.advance(), 3)
        XCTAssertThrowsError(try q.insert(QueueItem(uri: "z"), at: 5)) { error in
            XCTAssertEqual(error as? QueueError, .indexOutOfRange(index: 5, count: 4))
        }
        XCTAssertThrowsError(try q.insert(QueueItem(uri: "z"), at: -1))
        XCTAssertEqual(q.count, 4)
    }

    func testRemoveBeforeAfterAndTheCurrentItem() throws {
        var q = PlayQueue(items: items(4))
        q.advance(); q.advance() // current = 1
        var result = try q.remove(at: 3)
        XCTAssertFalse(result.currentRemoved)
        XCTAssertEqual(q.currentIndex, 1)
        result = try q.remove(at: 0)
        XCTAssertFalse(result.currentRemoved)
        XCTAssertEqual(q.currentIndex, 0, "index shifts with the item")
        XCTAssertEqual(q.current?.uri, "file:///m/1.ogg")
        result = try q.remove(at: 0)
        XCTAssertTrue(result.currentRemoved)
        XCTAssertEqual(result.item.uri, "file:///m/1.ogg")
        XCTAssertEqual(q.current?.uri, "file:///m/2.ogg", "the following item becomes current")
        result = try q.remove(at: 0)
        XCTAssertTrue(result.currentRemoved)
        XCTAssertNil(q.currentIndex, "nothing follows the last item")
        XCTAssertTrue(q.isEmpty)
        XCTAssertThrowsError(try q.remove(at: 0)) { error in
            XCTAssertEqual(error as? QueueError, .indexOutOfRange(index: 0, count: 0))
            XCTAssertEqual(String(describing: error), "no item 0: the queue is empty")
        }
    }

    func testMoveKeepsTheCurrentItemAndRejectsOutOfRange() throws {
        var q = PlayQueue(items: items(4))
        q.advance() // current = 0
        try q.move(from: 0, to: 3)
        XCTAssertEqual(q.currentIndex, 3)
        XCTAssertEqual(uris(q), ["file:///m/1.ogg", "file:///m/2.ogg", "file:///m/3.ogg", "file:///m/0.ogg"])
        XCTAssertThrowsError(try q.move(from: 4, to: 0)) { XCTAssertEqual($0 as? QueueError, .indexOutOfRange(index: 4, count: 4)) }
        XCTAssertThrowsError(try q.move(from: 0, to: 9)) { XCTAssertEqual($0 as? QueueError, .indexOutOfRange(index: 9, count: 4)) }
        XCTAssertThrowsError(try q.move(from: -1, to: 0))
        XCTAssertEqual(uris(q), ["file:///m/1.ogg", "file:///m/2.ogg", "file:///m/3.ogg", "file:///m/0.ogg"], "unchanged after errors")
        XCTAssertNil(q.advance(), "after the moved current item (now last) nothing follows")
    }

    func testJumpAndOutOfRangeJump() throws {
        var q = PlayQueue(items: items(3))
        try q.jump(to: 2)
        XCTAssertEqual(q.currentIndex, 2)
        XCTAssertThrowsError(try q.jump(to: 99)) { error in
            XCTAssertEqual(error as? QueueError, .indexOutOfRange(index: 99, count: 3))
            XCTAssertEqual(String(describing: error), "no item 99: the queue has 3 items (0–2)")
        }
        XCTAssertThrowsError(try q.jump(to: -1))
        XCTAssertEqual(q.currentIndex, 2)
        XCTAssertThrowsError(try q.item(at: 3))
        XCTAssertEqual(try q.item(at: 1).title, "t1")
    }

    func testClear() {
        var q = PlayQueue(items: items(3), shuffled: true, seed: 4)
        q.advance()
        q.clear()
        XCTAssertTrue(q.isEmpty)
        XCTAssertNil(q.currentIndex)
        XCTAssertNil(q.advance())
        q.append(QueueItem(uri: "a"))
        XCTAssertEqual(q.advance(), 0, "a cleared queue takes new items")
    }

    // MARK: Shuffle

    /// Plays `passes` full passes and returns the visited indices per pass.
    private func playPasses(_ q: inout PlayQueue, passes: Int) -> [[Int]] {
        var result: [[Int]] = []
        for _ in 0..<passes {
            var pass: [Int] = []
            for _ in 0..<q.count { pass.append(q.advance()!) }
            result.append(pass)
        }
        return result
    }

    func testShuffleVisitsEachItemExactlyOncePerPassAndReshufflesEachPass() {
        var q = PlayQueue(items: items(8), loop: .all, shuffled: true, seed: 42)
        let passes = playPasses(&q, passes: 6)
        for pass in passes { XCTAssertEqual(pass.sorted(), Array(0..<8), "each item once per pass: \(pass)") }
        XCTAssertGreaterThan(Set(passes).count, 1, "passes are reshuffled")
        XCTAssertNotEqual(passes[0], Array(0..<8), "the order is shuffled")
        for (a, b) in zip(passes, passes.dropFirst()) { XCTAssertNotEqual(a.last, b.first, "no item twice in a row at a pass boundary") }
    }

    func testShuffleIsStableForASeedAndDiffersAcrossSeeds() {
        var a = PlayQueue(items: items(10), loop: .all, shuffled: true, seed: 7)
        var b = PlayQueue(items: items(10), loop: .all, shuffled: true, seed: 7)
        var c = PlayQueue(items: items(10), loop: .all, shuffled: true, seed: 8)
        let pa = playPasses(&a, passes: 3), pb = playPasses(&b, passes: 3), pc = playPasses(&c, passes: 3)
        XCTAssertEqual(pa, pb)
        XCTAssertNotEqual(pa, pc)
    }

    func testShuffleWithoutLoopEndsAfterOnePass() {
        var q = PlayQueue(items: items(5), shuffled: true, seed: 1)
        let pass = playPasses(&q, passes: 1)[0]
        XCTAssertEqual(pass.sorted(), Array(0..<5))
        XCTAssertNil(q.advance())
    }

    func testTurningShuffleOnKeepsTheCurrentItemFirstOfThePass() {
        var q = PlayQueue(items: items(6), seed: 3)
        q.advance(); q.advance() // current 1
        q.setShuffled(true)
        XCTAssertEqual(q.currentIndex, 1)
        var rest: [Int] = []
        for _ in 0..<5 { rest.append(q.advance()!) }
        XCTAssertEqual((rest + [1]).sorted(), Array(0..<6), "the rest of the pass is the other items once each")
        XCTAssertNil(q.advance())
        q.setShuffled(false)
        XCTAssertFalse(q.isShuffled)
    }

    func testShuffleOffContinuesInListOrderFromTheCurrentItem() throws {
        var q = PlayQueue(items: items(5), shuffled: true, seed: 9)
        q.advance()
        let current = q.currentIndex!
        q.setShuffled(false)
        XCTAssertEqual(q.advance(), current + 1 < 5 ? current + 1 : nil)
    }

    func testItemsAddedWhileShufflingJoinThisPassOnce() throws {
        var q = PlayQueue(items: items(4), loop: .all, shuffled: true, seed: 5)
        var visited = [q.advance()!, q.advance()!]
        q.append(QueueItem(uri: "new"))
        for _ in 0..<3 { visited.append(q.advance()!) }
        XCTAssertEqual(visited.sorted(), Array(0..<5), "the new item is played in this pass, every item once")
    }

    func testRemovingWhileShufflingKeepsThePassConsistent() throws {
        var q = PlayQueue(items: items(6), shuffled: true, seed: 11)
        let first = q.advance()!
        let uriFirst = q.items[first].uri
        // Remove one unplayed item; the pass has the remaining ones once each.
        let victim = (0..<6).first { $0 != first }!
        let victimURI = q.items[victim].uri
        try q.remove(at: victim)
        var seen = [uriFirst]
        while let index = q.advance() { seen.append(q.items[index].uri) }
        XCTAssertEqual(Set(seen).count, 5)
        XCTAssertFalse(seen.contains(victimURI))
    }

    func testJumpWhileShufflingKeepsEveryOtherItemOncePerPass() throws {
        var q = PlayQueue(items: items(6), shuffled: true, seed: 2)
        var visited = [q.advance()!]
        let unplayed = (0..<6).filter { !visited.contains($0) }.last!
        try q.jump(to: unplayed)
        visited.append(unplayed)
        while let index = q.advance() { visited.append(index) }
        XCTAssertEqual(visited.sorted(), Array(0..<6))
    }

    func testPreviousWhileShufflingGoesBackInPlayOrder() {
        var q = PlayQueue(items: items(5), shuffled: true, seed: 13)
        let a = q.advance()!, b = q.advance()!
        XCTAssertNotEqual(a, b)
        XCTAssertEqual(q.previous(), a)
        XCTAssertNil(q.previous(), "no loop: stays at the start of the pass")
        XCTAssertEqual(q.advance(), b)
    }

    func testSingleItemLoopAllRepeatsAndEmptyQueueIsInert() {
        var q = PlayQueue(items: items(1), loop: .all, shuffled: true, seed: 1)
        XCTAssertEqual(q.advance(), 0)
        XCTAssertEqual(q.advance(), 0)
        var empty = PlayQueue(loop: .all, shuffled: true)
        XCTAssertNil(empty.advance())
        XCTAssertNil(empty.previous())
    }
}
