import BackendCore
import BackendMPRIS
import BackendQueue

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
