import BackendCore

extension PlayerProperty {
    /// `playlist-pos`: the current item's index (0-based), -1 when there is none (as mpv).
    public static let playlistPos = PlayerProperty("playlist-pos") { .integer($0.features[QueueSnapshot.self]?.currentIndex ?? -1) }
    /// `playlist-count`: how many items the queue holds.
    public static let playlistCount = PlayerProperty("playlist-count") { .integer($0.features[QueueSnapshot.self]?.items.count ?? 0) }

    /// The queue's properties.
    public static let queue: [PlayerProperty] = [playlistPos, playlistCount]
}
