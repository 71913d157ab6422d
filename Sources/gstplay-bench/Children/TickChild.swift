import Backend
import Dispatch
import Foundation
import ProcessProbe
import Synchronization

/// `child tick CLIP`: one ``Player`` plays with the given position interval; the arrival time
/// (`CLOCK_MONOTONIC`, taken in the delegate on the loop thread) and the media position of every
/// `.position` event while `playing` are recorded for `--seconds`. Prints `times=s,s,…` and
/// `positions=s,s,…`; the loop thread's cumulative run-queue wait (`waits=ns,…`, runnable without
/// a CPU) and CPU time (`runs=ns,…`) and the machine's stolen time (`steals=s,…`) at each tick; the firing times of a bare GLib timer with the
/// same interval on its own thread (``FloorTicker``) as `floor=s,…`. The report sent right before
/// `.endOfStream` is not a tick and is dropped.
enum TickChild {
    static func run(_ arguments: ChildArguments) throws -> Int32 {
        let clip = try arguments.clip()
        let seconds = try arguments.double("seconds", default: 30)
        var configuration = ChildSupport.configuration(sync: true)
        let intervalMilliseconds = UInt32(try arguments.int("interval", default: 250))
        configuration.positionInterval = .milliseconds(intervalMilliseconds)
        let watcher = TickWatcher()
        let floor = FloorTicker(intervalMilliseconds: intervalMilliseconds)
        let player = Player(configuration: configuration, delegate: watcher)
        player.load(clip)
        guard watcher.playing.wait(timeout: .now() + 20) == .success else { throw BenchError("not playing within 20 s") }
        _ = watcher.ended.wait(timeout: .now() + seconds)
        let (times, positions, waits, runs, steals, failure) = watcher.stop()
        let floorTimes = floor.stop()
        player.shutdown()
        if let failure { throw BenchError("playback error: \(failure)") }
        ChildSupport.emit([
            ("times", times.map { String(format: "%.6f", $0) }.joined(separator: ",")),
            ("positions", positions.map { String(format: "%.6f", $0) }.joined(separator: ",")),
            ("waits", waits.map { String(format: "%.0f", $0) }.joined(separator: ",")),
            ("runs", runs.map { String(format: "%.0f", $0) }.joined(separator: ",")),
            ("steals", steals.map { String(format: "%.2f", $0) }.joined(separator: ",")),
            ("floor", floorTimes.map { String(format: "%.6f", $0) }.joined(separator: ",")),
        ])
        return 0
    }
}

/// Records `.position` arrival times while playing (loop thread) for ``TickChild``.
final class TickWatcher: PlayerDelegate {
    let playing = DispatchSemaphore(value: 0)
    let ended = DispatchSemaphore(value: 0)
    private struct Record {
        var isPlaying = false
        var everPlayed = false
        var stopped = false
        var times: [Double] = []
        var positions: [Double] = []
        /// Run-queue wait and CPU time of the loop thread so far (ns, `/proc/thread-self/schedstat`),
        /// and the machine's stolen time so far (s, `/proc/stat`), per tick.
        var waits: [Double] = []
        var runs: [Double] = []
        var steals: [Double] = []
        var failure: String?
    }
    private let record = Mutex(Record())

    func player(_ player: Player, didReceive event: PlayerEvent) {
        let now = MonotonicClock.now()
        switch event {
        case .stateChanged(_, let new):
            let first = record.withLock { state -> Bool in
                state.isPlaying = new == .playing
                defer { if new == .playing { state.everPlayed = true } }
                return new == .playing && !state.everPlayed
            }
            if first { playing.signal() }
        case .position(let position, _):
            let schedstat = ProcFS.read("/proc/thread-self/schedstat")?.split(separator: " ").compactMap { Double($0) } ?? []
            let steal = LoadSnapshot.now().steal
            record.withLock { state in
                guard state.isPlaying, !state.stopped else { return }
                state.times.append(now)
                state.positions.append(position.seconds)
                state.runs.append(schedstat.count > 0 ? schedstat[0] : 0)
                state.waits.append(schedstat.count > 1 ? schedstat[1] : 0)
                state.steals.append(steal)
            }
        case .endOfStream:
            // The engine publishes a final `.position` immediately before `.endOfStream`.
            record.withLock { state in
                if !state.stopped, let last = state.times.last, now - last < 0.002 {
                    state.times.removeLast()
                    state.positions.removeLast()
                    state.waits.removeLast()
                    state.runs.removeLast()
                    state.steals.removeLast()
                }
                state.stopped = true
            }
            ended.signal()
        case .error(let error):
            record.withLock { $0.failure = error.message; $0.stopped = true }
            playing.signal()
            ended.signal()
        default:
            break
        }
    }

    /// Stops recording and returns what was recorded.
    func stop() -> (times: [Double], positions: [Double], waits: [Double], runs: [Double], steals: [Double], failure: String?) {
        record.withLock { state in
            state.stopped = true
            return (state.times, state.positions, state.waits, state.runs, state.steals, state.failure)
        }
    }
}
