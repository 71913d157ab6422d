import BackendCore
import BackendMPRIS
import BackendQueue
import BackendTags

/// The play queue (`QueueFeature`) as MPRIS sees it (``MPRISQueueControl``): the umbrella sees
/// both feature targets, which do not see each other. **Thread:** the player's loop thread (the
/// MPRIS feature's queued work), as the protocol says.
struct MPRISQueueAdapter: MPRISQueueControl {
    let queue: QueueFeature

    /// The queue's snapshot section as MPRIS state; nil while it has no items.
    func state(in snapshot: PlayerSnapshot) -> MPRISQueueState? {
        guard let section = snapshot.features[QueueSnapshot.self], !section.items.isEmpty else { return nil }
        let loop: MPRISLoopStatus = switch section.loop {
        case .none: .none
        case .one: .track
        case .all: .playlist
        }
        return MPRISQueueState(items: section.items.map { .init(id: $0.id ?? -1, uri: $0.uri, title: $0.title) },
                               currentIndex: section.currentIndex, loop: loop, shuffled: section.shuffled,
                               hasNext: section.nextIndex != nil, hasPrevious: section.previousIndex != nil)
    }

    func next() { queue.advanceToNextItem() }
    func previous() { queue.returnToPreviousItem() }
    func goTo(itemID: Int) { queue.jump(toItemID: itemID) }
    func setShuffle(_ on: Bool) { queue.setShuffled(on) }
    func open(uri: String) { queue.playNow(QueueItem(uri: uri)) }

    func setLoop(_ status: MPRISLoopStatus) {
        switch status {
        case .none: queue.setLoopMode(.none)
        case .track: queue.setLoopMode(.one)
        case .playlist: queue.setLoopMode(.all)
        }
    }
}

/// The tags feature's section of the snapshot (`TagsSection`: the media's tags and cover art) as
/// MPRIS sees it (``MPRISTagSource``). **Thread:** the player's loop thread.
struct MPRISTagsAdapter: MPRISTagSource {
    /// The section's tags and picture; nil before the tags feature wrote any.
    func tags(in snapshot: PlayerSnapshot) -> MPRISMediaTags? {
        guard let section = snapshot.features[TagsSection.self] else { return nil }
        return MPRISMediaTags(title: section.tags.title, artist: section.tags.artist, album: section.tags.album,
                              coverArt: section.coverArt.map { [UInt8]($0.bytes) }, coverArtMIMEType: section.coverArt?.mimeType)
    }
}
