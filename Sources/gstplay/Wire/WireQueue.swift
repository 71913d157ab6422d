import Backend

/// The play queue on the wire (issue #12): the fields of the `playlist` event and of the
/// `playlist` command's reply data. Pure; any thread.
extension WireEvents.Playlist {
    /// `{"current": 1, "gapless": true, "items": [{"title": …, "uri": …}], "loop": "all", "shuffle": false}`.
    init(_ queue: QueueSnapshot) {
        self.init(current: queue.currentIndex, loop: queue.loop.rawValue, shuffle: queue.shuffled, gapless: queue.gapless,
                  items: queue.items.map { WireEvents.PlaylistEntry(uri: $0.uri, title: $0.title) })
    }
}
