import Backend
import Foundation
import TestSupport
import XCTest

/// Every ``PlayerEventRecord`` carries the snapshot as it stood when its event was
/// raised, so a consumer that is late (the CLI's actor, say) still learns which queue item an
/// event belongs to without keeping its own copy. Real `playbin` on the gapless fixtures, two of
/// them handed over gaplessly and one failing item in between.
final class RecordSnapshotTests: XCTestCase {
    func testEachRecordNamesTheItemAndLoadItBelongsTo() async throws {
        let player = Player.forTesting()
        defer { player.shutdown() }
        let records = player.records
        let uris = try [GaplessTests.fixtures[0], TestMedia.path("does-not-exist.ogg"), GaplessTests.fixtures[1],
                        GaplessTests.fixtures[2]].map { try MediaLocation.uri(for: $0) }
        try player.setQueue(uris.map { QueueItem(uri: $0) })
        var loaded: [(index: Int?, count: Int, uri: String?, loadID: LoadID?, snapshotLoad: LoadID?)] = []
        var changes: [(Int, Int?)] = []
        let deadline = ContinuousClock.now + .seconds(20)
        for await record in records {
            guard ContinuousClock.now < deadline else { return XCTFail("the queue did not end in time: \(loaded)") }
            let queue = record.snapshot.features[QueueSnapshot.self]
            if case .uriLoaded(let uri) = record.event {
                XCTAssertEqual(record.snapshot.uri, uri, "the snapshot names the media loaded")
                loaded.append((queue?.currentIndex, queue?.items.count ?? 0, uri, record.loadID, record.snapshot.loadID))
            }
            if case .itemChanged(let index, _, _)? = record.event.payload(as: QueueEvent.self) {
                changes.append((index, queue?.currentIndex))
            }
            if case .endOfStream = record.event { break }
        }
        XCTAssertEqual(loaded.map(\.index), [0, 1, 2, 3], "each uriLoaded's snapshot has its item current: \(loaded)")
        XCTAssertEqual(loaded.map(\.count), [4, 4, 4, 4])
        XCTAssertEqual(loaded.map(\.uri), uris)
        XCTAssertEqual(loaded.map(\.loadID), loaded.map(\.snapshotLoad), "the snapshot's load is the record's")
        XCTAssertEqual(Set(loaded.compactMap(\.loadID)).count, 4, "one load per item")
        XCTAssertEqual(changes.map(\.0), [1, 2, 3])
        XCTAssertEqual(changes.map(\.1), [1, 2, 3], "an itemChanged's snapshot already has the new item current")
        XCTAssertEqual(player.snapshot.loadID, loaded.last?.loadID, "the snapshot's load is the current one")
    }
}
