@testable import BackendQueue
import Backend
import Foundation
import Glibc
import TestSupport
import XCTest

/// What a 10,000-item queue holds once every item was discovered (a compact
/// ``QueueItemInfo`` each, never the discoverer's result), and the playlist file's lengths.
final class QueueScaleTests: XCTestCase {
    private func heapInUse() throws -> Int { try XCTUnwrap(HeapUsage.bytesInUse(), "malloc_info") }

    func testTenThousandDiscoveredItemsStayUnderFourMegabytes() throws {
        let count = 10_000
        let start = try heapInUse()
        var items = (0..<count).map { QueueItem(uri: "file:///music/album-\($0 / 12)/track-\($0).ogg", title: "Track number \($0) of the list") }
        let bare = try heapInUse()
        for index in items.indices {
            // Realistic tags (about 40 characters each, all different) plus, every 100th item, a
            // 5,000-character artist cut to the 200-character cap.
            let artist = index % 100 == 0 ? String(repeating: "y", count: 5_000) : "The artist of album number \(index / 12) here"
            items[index].info = QueueItemInfo(duration: .milliseconds(Int64(180_000 + index)), title: "The title of track number \(index) here",
                                              artist: artist, album: "The album number \(index / 12) of them", hasVideo: false, hasAudio: true)
        }
        let discovered = try heapInUse()
        let queue = PlayQueue(items: items)
        let held = discovered - bare
        print("QueueScaleTests: \(count) items: \(bare - start) bytes as listed, +\(held) bytes once discovered (\(held / count) bytes per item)")
        XCTAssertLessThan(held, 4 << 20, "compact summaries: under 4 MiB for \(count) items")
        XCTAssertEqual(queue.items[100].info?.artist?.count, QueueItemInfo.maximumTextLength, "a long tag is cut")
        XCTAssertEqual(queue.totalDuration.count, count)
    }

    func testNearestFirstOrderAroundTheCurrentItem() throws {
        var queue = PlayQueue(items: (0..<6).map { QueueItem(uri: "file:///\($0).ogg") })
        try queue.jump(to: 4)
        var order: [Int] = []
        while let next = queue.nextToDiscover(around: queue.currentIndex, isWanted: { $0.uri != "file:///2.ogg" }) {
            order.append(next.id)
            queue.setInfo(QueueItemInfo(), forID: next.id)
        }
        XCTAssertEqual(order, [4, 5, 3, 1, 0], "the current item, then outward; an unwanted item is left")
    }

    func testAdvancePassesOverUnplayableItems() throws {
        var queue = PlayQueue(items: (0..<4).map { QueueItem(uri: "file:///\($0).ogg") })
        queue.setInfo(QueueItemInfo(error: "broken"), forID: 1)
        queue.setInfo(QueueItemInfo(error: "broken"), forID: 2)
        XCTAssertEqual(queue.advance(), 0)
        XCTAssertEqual(queue.advance(), 3)
        XCTAssertEqual(queue.takeSkipped(), [1, 2])
        XCTAssertEqual(queue.takeSkipped(), [])
        XCTAssertNil(queue.advance())
    }

    func testPlaylistFileLengthsBecomeItemDurations() throws {
        let m3u = PlaylistFile.m3uEntries("#EXTM3U\n#EXTINF:123,Song A\na.ogg\n#EXTINF:-1,Song B\nb.ogg\n#EXTINF:12.5 tvg-id=\"x\",C\nc.ogg\nd.ogg\n")
        XCTAssertEqual(m3u.map(\.title), ["Song A", "Song B", "C", nil])
        XCTAssertEqual(m3u.map(\.duration), [MediaTime(seconds: 123), nil, MediaTime(seconds: 12.5), nil])
        let pls = try PlaylistFile.plsEntries("[playlist]\nFile1=a.ogg\nTitle1=A\nLength1=61\nFile2=b.ogg\nLength2=-1\nNumberOfEntries=2\n", path: "x.pls")
        XCTAssertEqual(pls.map(\.duration), [MediaTime(seconds: 61), nil])
        XCTAssertEqual(pls.map(\.title), ["A", nil])

        let directory = NSTemporaryDirectory() + "/queue-scale-\(getpid())"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try "#EXTM3U\n#EXTINF:200,Long one\n/music/a.ogg\n".write(toFile: directory + "/l.m3u", atomically: true, encoding: .utf8)
        guard case .items(let items, _) = try PlaylistFile.load(directory + "/l.m3u") else { return XCTFail("items") }
        XCTAssertEqual(items.first?.title, "Long one")
        XCTAssertEqual(items.first?.knownDuration, MediaTime(seconds: 200))
        try PlaylistFile.saveM3U(items, to: directory + "/saved.m3u")
        XCTAssertTrue(try String(contentsOfFile: directory + "/saved.m3u", encoding: .utf8).contains("#EXTINF:200,Long one"))
    }
}
