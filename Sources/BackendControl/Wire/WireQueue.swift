import Backend

/// The play queue on the wire, with its changes and its items' media info: the fields of the
/// `playlist` event and of the `playlist` command's reply data, and the change events. Pure; any thread.
extension WireEvents.Playlist {
    /// `{"current": 1, "gapless": true, "items": [{"id": 4, "title": …, "uri": …}], "loop": "all", "shuffle": false}`.
    /// `detailed` (the `playlist` reply): items also carry what is known about their media
    /// (``WireEvents/PlaylistDetails``), and the list its `total_duration` and `known_durations`.
    public init(_ queue: QueueSnapshot, detailed: Bool = false) {
        self.init(current: queue.currentIndex, loop: queue.loop.rawValue, shuffle: queue.shuffled, gapless: queue.gapless,
                  items: queue.items.map { WireEvents.PlaylistEntry($0, detailed: detailed) })
        if detailed, queue.knownDurationCount > 0 {
            totalDuration = Seconds(queue.totalDuration)
            knownDurations = queue.knownDurationCount
        }
    }
}

extension WireEvents.PlaylistEntry {
    private enum Keys: String, CodingKey { case uri, title, id }

    /// An item: `{id, title, uri}`, plus its details when `detailed`.
    public init(_ item: QueueItem, detailed: Bool) {
        self.init(uri: item.uri, title: item.title, id: item.id, details: detailed ? WireEvents.PlaylistDetails(item) : nil)
    }

    /// `id`, `title` and `uri` (null when unknown), then the details' fields in the same object.
    public func encodeEntry(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Keys.self)
        try container.encode(uri, forKey: .uri)
        if let title { try container.encode(title, forKey: .title) } else { try container.encodeNil(forKey: .title) }
        if let id { try container.encode(id, forKey: .id) } else { try container.encodeNil(forKey: .id) }
        try details?.encode(to: encoder)
    }
}

extension WireEvents {
    /// What is known about an item's media, each key absent while unknown:
    /// `duration` (discovered, else the playlist file's), `media_title`/`artist`/`album` (its
    /// tags), `has_video`, `has_audio`, `playable` and, when not, `error` (the discoverer's).
    public struct PlaylistDetails: Encodable, Equatable, Sendable {
        /// The item's duration (absent: unknown).
        public var duration: Seconds?
        /// The media's title tag.
        public var mediaTitle: String?
        /// The media's artist tag.
        public var artist: String?
        /// The media's album tag.
        public var album: String?
        /// Whether it has video.
        public var hasVideo: Bool?
        /// Whether it has audio.
        public var hasAudio: Bool?
        /// Whether the discoverer found it playable.
        public var playable: Bool?
        /// Why it is not playable.
        public var error: String?

        /// Nil when nothing is known about `item`'s media.
        public init?(_ item: QueueItem) {
            guard item.knownDuration != nil || item.info != nil else { return nil }
            duration = item.knownDuration.map { Seconds($0) }
            guard let info = item.info else { return }
            mediaTitle = info.title
            artist = info.artist
            album = info.album
            hasVideo = info.hasVideo
            hasAudio = info.hasAudio
            playable = info.isPlayable
            error = info.error
        }
    }

    /// `playlist-state`: the queue's state without its items (sent for long lists instead of `playlist`).
    public struct PlaylistState: Encodable, Sendable {
        @Nullable package var current: Int?
        package var loop: String
        package var shuffle: Bool
        package var gapless: Bool
        package var count: Int
    }
    /// `playlist-insert`: items added at `index`.
    public struct PlaylistInsert: Encodable, Sendable { var index: Int; var items: [PlaylistEntry] }
    /// `playlist-remove`: `count` items removed from `index` on.
    public struct PlaylistRemove: Encodable, Sendable { var index: Int; var count: Int }
    /// `playlist-move`: the item `id` moved from `from` to `to`.
    public struct PlaylistMove: Encodable, Sendable { var from: Int; var to: Int; var id: Int }
    /// `playlist-update`: what is known about the item at `index` changed.
    public struct PlaylistUpdate: Encodable, Sendable { var index: Int; var item: PlaylistEntry }

    /// The longest queue whose every change is still sent whole as a `playlist` event (protocol 1
    /// clients read it); a longer one gets `playlist-state` instead, and its items only on request
    /// (the `playlist` command). The change events are sent for every queue.
    public static let wholePlaylistLimit = 100

    /// The line for one queue event: `playlist` (or `playlist-state` for a long queue), `item`
    /// (with the item's `item_id`), the end of an item the queue moved on from as the `eos` every
    /// item gets, `playlist-insert`/`-remove`/`-move`/`-update`, and an item skipped as unplayable
    /// as the `error` it would have raised.
    public static func line(for event: QueueEvent) -> String {
        func line(_ name: String, _ payload: some Encodable & Sendable) -> String { Wire.line(WireEvent(event: name, payload: payload)) }
        switch event {
        case .queueChanged(let queue) where queue.items.count > wholePlaylistLimit:
            return line("playlist-state", PlaylistState(current: queue.currentIndex, loop: queue.loop.rawValue, shuffle: queue.shuffled,
                                                        gapless: queue.gapless, count: queue.items.count))
        case .queueChanged(let queue):
            return line("playlist", Playlist(queue))
        case .itemChanged(let index, let id, let reason):
            return line("item", Item(index: index, itemId: id, reason: reason.rawValue))
        case .itemEnded(_, _, let position):
            return Self.line(for: .endOfStream(position: position))
        case .itemsInserted(let index, let items):
            return line("playlist-insert", PlaylistInsert(index: index, items: items.map { PlaylistEntry($0, detailed: true) }))
        case .itemsRemoved(let index, let count):
            return line("playlist-remove", PlaylistRemove(index: index, count: count))
        case .itemMoved(let from, let to, let id):
            return line("playlist-move", PlaylistMove(from: from, to: to, id: id))
        case .itemUpdated(let index, let item):
            return line("playlist-update", PlaylistUpdate(index: index, item: PlaylistEntry(item, detailed: true)))
        case .itemSkipped(_, _, let error):
            return Self.line(for: .error(error))
        }
    }
}
