import BackendCore

/// What the discoverer found, on the queue's items. Pure; loop thread like the queue.
extension PlayQueue {
    /// The index of the item with `id`, nil when it is not in the queue (O(n)).
    func index(ofID id: Int) -> Int? { entries.firstIndex { $0.id == id } }

    /// Stores `info` on the item with `id` and returns its index, nil when the item is gone.
    @discardableResult
    mutating func setInfo(_ info: QueueItemInfo, forID id: Int) -> Int? {
        guard let index = index(ofID: id) else { return nil }
        entries[index].item.info = info
        return index
    }

    /// The ids ``advance(reason:)`` passed over since the last call, oldest first.
    mutating func takeSkipped() -> [Int] { defer { skipped = [] }; return skipped }

    /// The next item to discover, nearest first: the item at `center` (the current one, else the
    /// first), then `center+1`, `center-1`, `center+2`… in list order, taking the first whose
    /// `info` is nil and that `isWanted` accepts (with its id and URI). O(n) at most.
    func nextToDiscover(around center: Int?, isWanted: (QueueItem) -> Bool) -> (id: Int, uri: String)? {
        guard !entries.isEmpty else { return nil }
        let middle = min(max(center ?? 0, 0), entries.count - 1)
        for distance in 0..<entries.count {
            for index in distance == 0 ? [middle] : [middle + distance, middle - distance] where entries.indices.contains(index) {
                let entry = entries[index]
                if entry.item.info == nil, isWanted(entry.item) { return (entry.id, entry.item.uri) }
            }
            if middle - distance < 0 && middle + distance >= entries.count { break }
        }
        return nil
    }

    /// The sum of the known durations (``QueueItem/knownDuration``) and how many items have one.
    var totalDuration: (known: MediaTime, count: Int) {
        var total = MediaTime.zero, count = 0
        for entry in entries { if let duration = entry.item.knownDuration { total = total + duration; count += 1 } }
        return (total, count)
    }
}
