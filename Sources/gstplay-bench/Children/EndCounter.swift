import Backend
import Dispatch
import Synchronization

/// Counts ends of stream and errors over one or many players, as a delegate on each player's
/// loop thread, and wakes the bench thread. The bench keeps the delegate path (not
/// `Player.events`): it measures the Backend as a delegate-driven frontend uses it, and an
/// AsyncStream consumer would add Swift's cooperative thread pool to the threads and memory
/// it reports.
final class EndCounter: PlayerDelegate {
    let signal = DispatchSemaphore(value: 0)
    private let state = Mutex<(ended: Int, failed: Int, firstError: String?)>((0, 0, nil))

    var finished: Int { state.withLock { $0.ended + $0.failed } }
    var counts: (Int, Int, String?) { state.withLock { ($0.ended, $0.failed, $0.firstError) } }

    func player(_ player: Player, didReceive event: PlayerEvent) {
        switch event {
        case .endOfStream:
            state.withLock { $0.ended += 1 }
            signal.signal()
        case .error(let error):
            state.withLock { state in
                state.failed += 1
                if state.firstError == nil { state.firstError = error.message }
            }
            signal.signal()
        default:
            break
        }
    }

    /// Waits until `count` players have ended or failed, or `seconds` passed (bench thread);
    /// `tick` runs at least every 100 ms meanwhile. Returns whether they all finished.
    @discardableResult
    func wait(forFinished count: Int, seconds: Double, tick: () -> Void = {}) -> Bool {
        let deadline = MonotonicClock.now() + seconds
        while finished < count && MonotonicClock.now() < deadline {
            _ = signal.wait(timeout: .now() + 0.1)
            tick()
        }
        return finished >= count
    }
}
