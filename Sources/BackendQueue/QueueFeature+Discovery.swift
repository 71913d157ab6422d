import BackendCore
import CGStreamer
import GLibSupport

/// The queue's background discovery: each item's duration, title, artist, album,
/// video/audio and playability, found by a ``MediaDiscoverer`` before the item plays — one item at
/// a time, nearest the current item first (``PlayQueue/nextToDiscover(around:isWanted:)``), each
/// item once. The queue owns it (not the core) because the queue decides what to discover, in
/// which order, what a removal cancels and what an unplayable item means (it is skipped).
///
/// Discovery waits while the player opens an item (loaded, not yet prerolled): the discoverer's
/// pipeline demuxing a file beside the one opening it made start-up run two pipelines at once
/// (the peak of a headless play of one file: 85 → 80 MiB, docs/BENCHMARKS.md "The floor");
/// ``QueueFeature/prerolled()`` resumes it, and the item the player has prerolled is described by
/// the player itself (`QueueFeature+PlayerInfo.swift`), so it is not read a second time. When nothing is left to discover, the discoverer is
/// closed and the memory its threads freed is handed back (`malloc_trim`): glibc keeps it in
/// those threads' arenas otherwise (a 30 s play's anonymous memory: 38.6 → 31.2 MB).
///
/// Only local regular files are discovered: a network item would be downloaded a second time
/// (past the media cache, and counted by servers), and a FIFO would lose its data to the
/// discoverer. Each item keeps a ``QueueItemInfo`` — a compact summary, not the discoverer's
/// result — so a 10,000-item queue holds 10,000 small values (measured in
/// `QueueDiscoveryTests`).
///
/// **Thread:** loop thread only, like the rest of ``QueueFeature``.
final class QueueDiscovery {
    /// Discovery runs (on by default; ``Player/setQueueDiscovery(_:)`` turns it off).
    var isEnabled = true
    /// The id of the item being discovered, nil when idle.
    var itemID: Int?
    /// A ``QueueFeature/refreshDiscovery()`` is queued on the loop.
    var isScheduled = false
    /// The discoverer (made on first use; its GStreamer object only while there is work).
    var discoverer: MediaDiscoverer?
    /// Items discovered so far (for tests and statistics).
    var discoveredCount = 0
    /// A result is stored on the queue but not yet in the player's snapshot (see
    /// ``QueueFeature/discovered(id:info:)``).
    var snapshotIsStale = false
    /// When the queue's snapshot was last published (`g_get_monotonic_time`, ns).
    var lastSnapshot: UInt64 = 0
    /// A long queue's snapshot is republished at most this often for results alone: building it
    /// copies every item (O(n)), which at 10,000 items cost about as much as the discovery itself.
    static let snapshotInterval: UInt64 = 250_000_000
    /// The queue length from which results are coalesced into fewer snapshots.
    static let coalescingLength = 100
    /// The pause between one result and the next discovery: one local file costs about 3.6 ms of
    /// CPU (debug build), so a long queue's discovery takes about a quarter of one core, not all of it.
    static let gap: Duration = .milliseconds(10)
    /// The pending pause (a one-shot loop timer), destroyed when discovery stops.
    var pause: TimerSource?
}

extension QueueFeature {
    /// Queues one ``refreshDiscovery()`` on the loop thread (never inline: this may run inside
    /// the discoverer's own signal, or in the middle of a queue command).
    func scheduleDiscovery() {
        guard discovery.isEnabled, !discovery.isScheduled, let context else { return }
        discovery.isScheduled = true
        context.runOnLoop { [weak self] in
            guard let self else { return }
            self.discovery.isScheduled = false
            self.refreshDiscovery()
        }
    }

    /// Drops the discovery in flight when its item left the queue (its result will be ignored:
    /// stopping a `GstDiscoverer` mid-URI is not safe in 1.22, see ``MediaDiscoverer/close()``,
    /// and one local file takes milliseconds, at most the discoverer's timeout), then starts the
    /// next one when the discoverer is idle; closes the discoverer when nothing is left. Loop thread.
    func refreshDiscovery() {
        if let id = discovery.itemID, queue.index(ofID: id) == nil || !discovery.isEnabled {
            context?.trace("discovery of item \(id) cancelled")
            discovery.itemID = nil
        }
        guard discovery.isEnabled, discovery.discoverer?.isBusy != true, !playerIsOpeningAnItem else { return }
        guard let next = queue.nextToDiscover(around: queue.currentIndex, isWanted: { QueueFeature.isDiscoverable($0.uri) }) else {
            if let discoverer = discovery.discoverer, discoverer.isOpen {
                discoverer.close()
                _ = malloc_trim(0)
            }
            if discovery.snapshotIsStale { publishSnapshot() }
            return
        }
        let discoverer = discovery.discoverer ?? MediaDiscoverer { [weak self] _, info in
            // Inside the discoverer's signal, from its own bus watch: the result is applied in
            // queued work, which delivers its events when it returns (and may start the next).
            guard let self else { return }
            let id = self.discovery.itemID
            self.context?.runOnLoop { [weak self] in self?.discovered(id: id, info: info) }
        }
        discovery.discoverer = discoverer
        if discoverer.discover(next.uri) {
            discovery.itemID = next.id
        } else {
            // The discoverer would not take it: remember that nothing is known, so it is not retried.
            queue.setInfo(QueueItemInfo(), forID: next.id)
            scheduleDiscovery()
        }
    }

    /// The result for item `id` (loop thread, queued; nil: its discovery was dropped): stored on
    /// the item, published as ``QueueEvent/itemUpdated(index:item:)``, and the next discovery
    /// started after ``QueueDiscovery/gap``.
    func discovered(id: Int?, info: QueueItemInfo) {
        guard let context else { return }
        if let id, discovery.itemID == id {
            discovery.itemID = nil
            discovery.discoveredCount += 1
            if let index = queue.setInfo(info, forID: id), let item = try? queue.item(at: index) {
                context.trace("discovered item \(id): \(info)")
                prepareHandover()                   // an unplayable item is not handed over
                // A long queue's snapshot follows its results at most every 250 ms (the event
                // carries the item; `currentQueue()` and the last result bring it up to date).
                let due = FeatureContext.now() &- discovery.lastSnapshot >= QueueDiscovery.snapshotInterval
                if queue.count <= QueueDiscovery.coalescingLength || due { publishSnapshot() } else { discovery.snapshotIsStale = true }
                context.publish(QueueEvent.itemUpdated(index: index, item: item))
            }
        }
        discovery.pause?.destroy()
        discovery.pause = context.loop.addTimer(every: QueueDiscovery.gap) { [weak self] in
            self?.refreshDiscovery()
            return false
        }
    }

    /// The player has a load in place that has not prerolled yet (and has not failed).
    var playerIsOpeningAnItem: Bool {
        guard let progress = context?.progress else { return false }
        return progress.isActive && !progress.prerolled
    }

    /// Publishes ``QueueEvent/itemSkipped(index:id:error:)`` for the items the queue passed over.
    func publishSkipped() {
        guard let context else { return }
        for id in queue.takeSkipped() {
            guard let index = queue.index(ofID: id), let item = try? queue.item(at: index) else { continue }
            let error = PlayerError(kind: .stream, message: item.info?.error ?? "the media cannot be played", uri: item.uri)
            context.publish(QueueEvent.itemSkipped(index: index, id: id, error: error))
        }
    }

    /// Stops discovering and releases the discoverer (teardown, or discovery turned off).
    func stopDiscovery() {
        discovery.pause?.destroy()
        discovery.pause = nil
        discovery.discoverer?.close()
        discovery.itemID = nil
    }

    /// True for a local regular file that can be read (``mayOpen(_:)``): the only items discovered.
    static func isDiscoverable(_ uri: String) -> Bool {
        FileURI.path(of: uri) != nil && mayOpen(uri)
    }
}
