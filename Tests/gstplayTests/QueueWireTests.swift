@testable import gstplay
import Backend
import XCTest

/// The `playlist` and `item` JSON events (issue #12), encoded by the Wire types.
final class QueueWireTests: XCTestCase {
    func testPlaylistAndItemLines() {
        let queue = QueueSnapshot(items: [QueueItem(uri: "file:///a.ogg", title: "A"), QueueItem(uri: "http://h/b")],
                                  currentIndex: 1, loop: .all, shuffled: true, gapless: false)
        XCTAssertEqual(WireEvents.line(for: .queueChanged(queue)),
                       #"{"current":1,"event":"playlist","gapless":false,"items":[{"title":"A","uri":"file:\/\/\/a.ogg"},{"title":null,"uri":"http:\/\/h\/b"}],"loop":"all","shuffle":true}"#
                        .replacingOccurrences(of: #"\/"#, with: "/"))
        XCTAssertEqual(WireEvents.line(for: .queueChanged(QueueSnapshot())),
                       #"{"current":null,"event":"playlist","gapless":true,"items":[],"loop":"none","shuffle":false}"#)
        XCTAssertEqual(WireEvents.line(for: .itemChanged(index: 2, reason: .error)), #"{"event":"item","index":2,"reason":"error"}"#)
    }
}
