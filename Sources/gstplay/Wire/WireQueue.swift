import Backend

/// The play queue on the wire (issue #12): the fields of the `playlist` event and of the
/// `playlist` command's reply data. Pure; any thread.
extension WireEvents.Playlist {
    /// `{"current": 1, "gapless": true, "items": [{"id": 4, "title": …, "uri": …}], "loop": "all", "shuffle": false}`.
    init(_ queue: QueueSnapshot) {
        self.init(current: queue.currentIndex, loop: queue.loop.rawValue, shuffle: queue.shuffled, gapless: queue.gapless,
                  items: queue.items.map { WireEvents.PlaylistEntry(uri: $0.uri, title: $0.title, id: $0.id) })
    }
}

extension WireEvents {
    /// The line for one queue event: `playlist`, `item` (with the item's `item_id`), and the end
    /// of an item the queue moved on from as the `eos` every item gets.
    static func line(for event: QueueEvent) -> String {
        switch event {
        case .queueChanged(let queue):
            Wire.line(WireEvent(event: "playlist", payload: Playlist(queue)))
        case .itemChanged(let index, let id, let reason):
            Wire.line(WireEvent(event: "item", payload: Item(index: index, itemId: id, reason: reason.rawValue)))
        case .itemEnded(_, _, let position):
            line(for: .endOfStream(position: position))
        }
    }
}
