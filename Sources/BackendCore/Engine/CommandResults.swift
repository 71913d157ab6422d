import Synchronization

/// One caller waiting for the result of a command (``Player/seekAsync(to:mode:)``,
/// ``Player/loadAsync(_:startAt:)``, ``Player/statistics()``…): calls its completion exactly once
/// (for `async` callers, one that resumes their continuation). A reply dropped unresolved — its
/// command never ran because the loop quit first — completes with ``PlayerError/shutDown`` in
/// `deinit`, so no continuation leaks.
///
/// Also the package's other one-shot answers (`package`: a chapter chosen on the loop thread, a
/// cast stopped, a web remote's HTTP request answered), so the package has one call-once guard.
///
/// **Thread:** made on the caller's thread, resolved on the loop thread — or on the caller's,
/// when the work was refused, and from `deinit` on whichever thread drops the last reference
/// (the loop's queue destroyed unrun): the lock makes the once hold across them. The completion
/// runs on the resolving thread and must not block.
package final class PendingReply<Value: Sendable>: Sendable {
    /// What the reply calls, once.
    package typealias Completion = @Sendable (Result<Value, PlayerError>) -> Void
    private let completion: Mutex<Completion?>

    /// A reply that calls `completion` once.
    package init(_ completion: @escaping Completion) { self.completion = Mutex(completion) }

    /// Completes with `result`; later calls do nothing.
    package func resolve(_ result: Result<Value, PlayerError>) {
        let waiting = completion.withLock { slot -> Completion? in
            defer { slot = nil }
            return slot
        }
        waiting?(result)
    }

    deinit { resolve(.failure(.shutDown)) }
}

/// The load identity and the callers waiting for the outcome of a load or a seek.
///
/// - A load's reply resolves with its ``LoadID`` when it prerolls, or fails with the load's
///   error, when another load replaces it, at stop and at shutdown.
/// - A seek's reply waits in ``queuedSeeks`` while its request is kept (before preroll, until the
///   duration is known, or coalesced by the throttle — the latest request wins, so every queued
///   reply belongs to the next seek the throttle issues), then in ``issuedSeeks`` until that seek
///   lands (ASYNC_DONE: the landed position) or the stream ends (the end position). A new load,
///   stop, failure and shutdown fail every one.
///
/// **Thread:** a value owned by the engine on the loop thread.
struct CommandResults {
    /// The load whose media is current; nil before the first load.
    private(set) var currentLoad: LoadID?
    private var loadsSoFar: UInt64 = 0
    /// Load replies waiting for preroll.
    var loads: [PendingReply<LoadID>] = []
    /// Seek replies whose request has not been issued yet.
    var queuedSeeks: [PendingReply<MediaTime>] = []
    /// Seek replies whose seek was issued and has not landed.
    var issuedSeeks: [PendingReply<MediaTime>] = []
    /// Set at teardown: later replies fail at once.
    var closed = false

    /// A new media begins: the next load identity becomes current.
    mutating func beginLoad() {
        loadsSoFar += 1
        currentLoad = LoadID(rawValue: loadsSoFar)
    }

    /// Takes every load reply (for resolving them).
    mutating func takeLoads() -> [PendingReply<LoadID>] {
        defer { loads = [] }
        return loads
    }

    /// Takes every seek reply, queued and issued.
    mutating func takeSeeks() -> [PendingReply<MediaTime>] {
        defer { queuedSeeks = []; issuedSeeks = [] }
        return queuedSeeks + issuedSeeks
    }
}

extension PlayerError {
    /// A command's result when the player shut down before it came.
    package static let shutDown = PlayerError(kind: .other, message: "the player is shut down")
    /// A load's or seek's result when a new load replaced the media first.
    static let replacedByLoad = PlayerError(kind: .other, message: "a new load replaced the media")
    /// A load's or seek's result when playback was stopped first.
    static let stopped = PlayerError(kind: .other, message: "playback was stopped")
    /// A seek's result when it had not landed after `limit` (``PlayerConfiguration/seekLandingLimit``).
    static func seekNotLanded(within limit: Duration) -> PlayerError {
        PlayerError(kind: .other, message: "not landed within \(limit.formattedSeconds) (the seek goes on; its seek-done event follows when it lands)")
    }
}
