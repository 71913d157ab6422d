/// The frontend contract: what a UI (the `gstplay` CLI, or any app) is told by a ``Player``.
///
/// **Thread:** every method is called on the player's own loop thread (named `gstplay-loop`),
/// one at a time and in order, unless ``PlayerConfiguration/delegateQueue`` is set, in which
/// case they are called on that queue, still in order. They leave the loop thread the one way
/// everything does (the `EventHub` outbox, shared with time-observer calls, in the order
/// raised), after the engine's handler that raised the event has returned. Do not block in them;
/// calling back into the ``Player`` from them is allowed and never re-enters the engine:
/// commands are queued and run after the callback returns, in order; on the loop thread the
/// calls that would wait for it answer from the snapshot, `snapshotNow()` (thumbnails)
/// throws and ``Player/shutdown()`` tears down after the callback returns (see ``Player``).
///
/// All methods have empty default implementations. ``player(_:didReceive:)`` sees every event,
/// including those without a dedicated method.
public protocol PlayerDelegate: AnyObject, Sendable {
    /// The player is ready to take commands (the seed's `gstreamerInitialized`).
    func playerDidInitialize(_ player: Player)
    /// Position and duration, four times a second while playing (the seed's `setCurrentPosition`).
    func player(_ player: Player, didUpdatePosition position: MediaTime, duration: MediaTime?)
    /// The video's display size changed, PAR applied; nil for no video (the seed's `mediaSizeChanged`).
    func player(_ player: Player, didChangeMediaSize size: VideoSize?)
    /// The explicit state changed.
    func player(_ player: Player, didChangeStateFrom old: PlayerState, to new: PlayerState)
    /// Buffering level, 0…100.
    func player(_ player: Player, didBuffer percent: Int)
    /// A seek landed at `position`.
    func player(_ player: Player, didFinishSeekAt position: MediaTime)
    /// End of stream at `position`.
    func player(_ player: Player, didReachEndAt position: MediaTime)
    /// A non-fatal problem.
    func player(_ player: Player, didWarn warning: PlayerError)
    /// A fatal problem; a new ``Player/load(_:startAt:)`` recovers.
    func player(_ player: Player, didFail error: PlayerError)
    /// Every event, including those above, after the dedicated method.
    func player(_ player: Player, didReceive event: PlayerEvent)
    /// Every event with the load it belongs to (nil before the first load), after
    /// ``player(_:didReceive:)``.
    func player(_ player: Player, didReceive event: PlayerEvent, loadID: LoadID?)
}

public extension PlayerDelegate {
    func playerDidInitialize(_ player: Player) {}
    func player(_ player: Player, didUpdatePosition position: MediaTime, duration: MediaTime?) {}
    func player(_ player: Player, didChangeMediaSize size: VideoSize?) {}
    func player(_ player: Player, didChangeStateFrom old: PlayerState, to new: PlayerState) {}
    func player(_ player: Player, didBuffer percent: Int) {}
    func player(_ player: Player, didFinishSeekAt position: MediaTime) {}
    func player(_ player: Player, didReachEndAt position: MediaTime) {}
    func player(_ player: Player, didWarn warning: PlayerError) {}
    func player(_ player: Player, didFail error: PlayerError) {}
    func player(_ player: Player, didReceive event: PlayerEvent) {}
    func player(_ player: Player, didReceive event: PlayerEvent, loadID: LoadID?) {}
}

extension PlayerEvent {
    /// Calls the dedicated delegate method for this event (if any), then `didReceive`.
    func deliver(to delegate: any PlayerDelegate, from player: Player) {
        switch self {
        case .initialized: delegate.playerDidInitialize(player)
        case .position(let position, let duration): delegate.player(player, didUpdatePosition: position, duration: duration)
        case .mediaSize(let size): delegate.player(player, didChangeMediaSize: size)
        case .stateChanged(let old, let new): delegate.player(player, didChangeStateFrom: old, to: new)
        case .buffering(let percent): delegate.player(player, didBuffer: percent)
        case .seekDone(let position): delegate.player(player, didFinishSeekAt: position)
        case .endOfStream(let position): delegate.player(player, didReachEndAt: position)
        case .warning(let warning): delegate.player(player, didWarn: warning)
        case .error(let error): delegate.player(player, didFail: error)
        default: break
        }
        delegate.player(player, didReceive: self)
    }
}

extension PlayerEventRecord {
    /// Delivers the event (``PlayerEvent/deliver(to:from:)``), then its record
    /// (``PlayerDelegate/player(_:didReceive:loadID:)``).
    func deliver(to delegate: any PlayerDelegate, from player: Player) {
        event.deliver(to: delegate, from: player)
        delegate.player(player, didReceive: event, loadID: loadID)
    }
}
