@testable import BackendControl
@testable import gstplay
@testable import BackendQueue
import Backend
import XCTest

/// The `playlist` and `item` JSON events, encoded by the Wire types.
final class QueueWireTests: XCTestCase {
    func testPlaylistAndItemLines() {
        var first = QueueItem(uri: "file:///a.ogg", title: "A")
        first.id = 7
        let queue = QueueSnapshot(items: [first, QueueItem(uri: "http://h/b")],
                                  currentIndex: 1, loop: .all, shuffled: true, gapless: false)
        XCTAssertEqual(WireEvents.line(for: .feature(FeatureEvent(QueueEvent.queueChanged(queue)))),
                       #"{"current":1,"event":"playlist","gapless":false,"items":[{"id":7,"title":"A","uri":"file:\/\/\/a.ogg"},{"id":null,"title":null,"uri":"http:\/\/h\/b"}],"loop":"all","shuffle":true}"#
                        .replacingOccurrences(of: #"\/"#, with: "/"))
        XCTAssertEqual(WireEvents.line(for: QueueEvent.queueChanged(QueueSnapshot())),
                       #"{"current":null,"event":"playlist","gapless":true,"items":[],"loop":"none","shuffle":false}"#)
        XCTAssertEqual(WireEvents.line(for: QueueEvent.itemChanged(index: 2, id: 5, reason: .error)), #"{"event":"item","index":2,"item_id":5,"reason":"error"}"#)
        XCTAssertEqual(WireEvents.line(for: QueueEvent.itemEnded(index: 1, id: 4, position: .milliseconds(1_500))),
                       WireEvents.line(for: .endOfStream(position: .milliseconds(1_500))), "the end of an item is its eos")
    }
}
