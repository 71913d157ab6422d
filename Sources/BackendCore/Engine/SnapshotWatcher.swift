/// One ``EventHub/watch(_:)`` stream (``Player/observe(_:)``): offered every snapshot getters can
/// read, it yields when the value it watches differs from the one in the snapshot offered before.
/// Kept and offered under the hub's lock.
struct SnapshotWatcher: Sendable {
    /// Yields `now`'s value unless `before` had the same one (`before` nil: the first offer).
    let yieldIfChanged: @Sendable (_ now: PlayerSnapshot, _ before: PlayerSnapshot?) -> Void
    /// Ends the stream.
    let finish: @Sendable () -> Void
    /// The snapshot offered last.
    private var last: PlayerSnapshot?

    init(offer: @escaping @Sendable (_ now: PlayerSnapshot, _ before: PlayerSnapshot?) -> Void, finish: @escaping @Sendable () -> Void) {
        self.yieldIfChanged = offer
        self.finish = finish
    }

    /// Offers the snapshot getters read now.
    mutating func offer(_ snapshot: PlayerSnapshot) {
        yieldIfChanged(snapshot, last)
        last = snapshot
    }
}
