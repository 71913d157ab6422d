import Backend
@testable import BackendQueue
import Foundation
@testable import BackendControl
@testable import gstplay

/// The queue lines: the change events, what the discoverer found, a long queue's state,
/// an item skipped as unplayable, and the `playlist` reply with durations (`Golden/values.jsonl`).
extension GoldenSamples {
    /// A discovered item (every detail known) and an unplayable one.
    static var discoveredItems: [QueueItem] {
        var song = QueueItem(uri: "file:///a/one.ogg", title: "From the list", duration: .milliseconds(200_000))
        song.id = 3
        song.info = QueueItemInfo(duration: .milliseconds(4_021), title: awkward, artist: "Band", album: "Album", hasVideo: false, hasAudio: true)
        var broken = QueueItem(uri: "file:///a/garbage.bin")
        broken.id = 4
        broken.info = QueueItemInfo(error: "Could not determine type of stream.")
        return [song, broken]
    }

    /// The lines, named.
    static var queueChangeLines: [(name: String, line: String)] {
        let items = discoveredItems
        var long = QueueSnapshot(items: (0..<101).map { QueueItem(uri: "file:///a/\($0).ogg") }, currentIndex: 7, loop: .one)
        long.gapless = false
        let detailed = QueueSnapshot(items: items, currentIndex: 0, loop: .none, shuffled: false, gapless: true)
        func line(_ event: QueueEvent) -> String { WireEvents.line(for: .feature(FeatureEvent(event))) }
        return [
            ("playlist-insert", line(.itemsInserted(index: 1, items: items))),
            ("playlist-insert-plain", line(.itemsInserted(index: 0, items: [QueueItem(uri: "http://host/two.ogg")]))),
            ("playlist-remove", line(.itemsRemoved(index: 2, count: 3))),
            ("playlist-move", line(.itemMoved(from: 0, to: 2, id: 3))),
            ("playlist-update", line(.itemUpdated(index: 0, item: items[0]))),
            ("playlist-update-unplayable", line(.itemUpdated(index: 1, item: items[1]))),
            ("playlist-state", line(.queueChanged(long))),
            ("item-skipped", line(.itemSkipped(index: 1, id: 4, error: PlayerError(kind: .stream, message: "Could not determine type of stream.",
                                                                                  uri: "file:///a/garbage.bin")))),
            ("reply-playlist-detailed", Reply(id: .int(10), error: nil, data: .playlist(WireEvents.Playlist(detailed, detailed: true))).line),
        ]
    }
}
