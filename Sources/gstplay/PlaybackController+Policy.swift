import Backend
import BackendControl

/// What only the CLI decides about a run, kept by the ``PlaybackController`` actor: the exit
/// status policy and whether the console input ended. Nothing here copies what the Backend knows
/// (which item plays, whether a load is under way: each event's ``PlayerEventRecord`` and
/// ``Player/snapshot`` say that). A plain value; any thread.
struct RunPolicy: Equatable, Sendable {
    /// An item failed (also a start-up location or a playlist file that could not be used):
    /// the run exits 1 instead of 0.
    var itemFailed = false
    /// The console input (stdin) ended: an emptied queue then ends the run.
    var inputEnded = false
    /// Casting failed: a run that would exit 0 exits ``ExitStatus/castFailed``.
    var castFailed = false

    /// The code for a run that ends now: 1 when an item failed, 7 when only casting failed, else 0.
    var exitCode: Int32 { itemFailed ? ExitStatus.playbackError : castFailed ? ExitStatus.castFailed : ExitStatus.success }

    /// The code a run returns, given the `decided` one (nil: none yet): 0 becomes 1 when an item
    /// failed, also when its failure arrived after the decision (during the shutdown), so the
    /// same input gives the same code whatever the timing (the Backend
    /// reports an error still on the bus at shutdown, `Engine.reportPendingErrors`). Signal
    /// codes stay.
    func finalCode(decided: Int32?) -> Int32 {
        let decided = decided ?? exitCode
        guard decided == ExitStatus.success else { return decided }
        return itemFailed ? ExitStatus.playbackError : castFailed ? ExitStatus.castFailed : decided
    }
}

extension PlaybackController {
    /// `--start` at or after the end of an item: one warning line, as nothing of the item plays
    /// (the player seeks to its end and the queue moves on; not a failure, the exit status stays).
    func warnIfStartIsPastTheEnd(of info: MediaInfo, item: EventItem?) async {
        guard case .absolute(let start)? = settings.start, let duration = info.duration, start >= duration else { return }
        let location = if let item { item.location } else { await control.location(of: info.uri) }
        reporter.note("gstplay: warning: \(location): --start \(start.formatted(fractionDigits: 1)) is past the end of the item (\(duration.formatted(fractionDigits: 1))): nothing of it plays")
    }

    /// A failed item: its one error line, and exit code 1.
    func failed(_ error: PlayerError, item: EventItem?) async {
        let typed = if let uri = error.uri { await control.names[uri] } else { String?.none }
        let location = typed ?? item?.location ?? error.uri ?? "?"
        reporter.failure(location: location, error: error)
        policy.itemFailed = true
    }
}

extension PlaybackController {
    /// Counts playlist files that could not be used as failed items (exit code 1 at the end).
    func noteFailedPlaylists(_ count: Int) {
        if count > 0 { policy.itemFailed = true }
    }
}
