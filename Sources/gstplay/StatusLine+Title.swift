import Backend

extension StatusLine {
    /// What plays, for the status line: the media's tags as "Artist – Title"
    /// (`MediaTags.displayTitle`, from the snapshot's ``TagsSection``), else the current queue
    /// item's title (a playlist's `#EXTINF` or `Title`), else nil.
    var nowPlaying: String? {
        if let title = snapshot.features[TagsSection.self]?.tags.displayTitle, !title.isEmpty { return title }
        guard let queue = snapshot.features[QueueSnapshot.self], let index = queue.currentIndex, queue.items.indices.contains(index) else { return nil }
        return queue.items[index].title.flatMap { $0.isEmpty ? nil : $0 }
    }
}
