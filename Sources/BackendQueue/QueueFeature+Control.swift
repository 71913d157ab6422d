import BackendCore

/// The queue's commands for code already on the loop thread — another feature's queued work,
/// reached through an adapter in the umbrella `Backend` (MPRIS's `MPRISQueueControl`) — with the
/// same effect and events as the `Player` methods of the same names (which queue them there).
/// **Thread:** the player's loop thread only, outside another feature's `PlayerFeature` call.
public extension QueueFeature {
    /// `Player.advanceToNextItem()`.
    func advanceToNextItem() { run(.next) }
    /// `Player.returnToPreviousItem()`.
    func returnToPreviousItem() { run(.previous) }
    /// `Player.jumpInQueue(to:)` for the item with this id; nothing when none has it.
    func jump(toItemID id: Int) {
        guard let index = queue.items.firstIndex(where: { $0.id == id }) else { return }
        run(.jump(index))
    }
    /// `Player.setLoopMode(_:)`.
    func setLoopMode(_ mode: LoopMode) { run(.loop(mode)) }
    /// `Player.setShuffled(_:seed:)` with the queue's seed.
    func setShuffled(_ on: Bool) { run(.shuffle(on, seed: nil)) }
    /// `Player.playNow(_:)`.
    func playNow(_ item: QueueItem) { run(.playNow(item)) }
}
