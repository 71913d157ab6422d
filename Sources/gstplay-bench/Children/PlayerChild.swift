import Backend
import Dispatch
import Synchronization

/// `child player CLIP`: the Backend without the CLI. One ``Player`` plays the clip to the end;
/// options switch Backend features off to measure what each costs (variants the Backend owner
/// can apply: `--keep-pitch false` drops the `scaletempo` audio filter, `--stats 0` the
/// statistics timer, `--tick MS` changes the position interval).
enum PlayerChild {
    static func run(_ arguments: ChildArguments) throws -> Int32 {
        let clip = try arguments.clip()
        var configuration = ChildSupport.configuration(sync: try arguments.bool("sync", default: true))
        configuration.keepPitch = try arguments.bool("keep-pitch", default: configuration.keepPitch)
        configuration.statisticsIntervalMilliseconds = UInt32(try arguments.int("stats", default: Int(configuration.statisticsIntervalMilliseconds)))
        configuration.positionIntervalMilliseconds = UInt32(try arguments.int("tick", default: Int(configuration.positionIntervalMilliseconds)))
        if try arguments.bool("delegate-queue", default: false) {
            configuration.delegateQueue = DispatchQueue(label: "gstplay-bench.delegate")
        }
        let watcher = EndWatcher()
        let player = Player(configuration: configuration, delegate: watcher)
        player.load(clip)
        let timeout = try arguments.double("timeout", default: 600)
        let outcome = watcher.wait(seconds: timeout)
        let threads = ChildSupport.threadReport() // before teardown: the streaming threads still exist
        player.shutdown()
        switch outcome {
        case .ended:
            ChildSupport.emit([("eos", "1"), ("threads", threads)])
            return 0
        case .failed(let message):
            throw BenchError("playback error: \(message)")
        case .timedOut:
            throw BenchError("no end of stream within \(Int(timeout)) s")
        }
    }
}

/// Waits for the end of the stream or an error of one player.
final class EndWatcher: PlayerDelegate {
    enum Outcome: Sendable { case ended, failed(String), timedOut }
    private let outcome = Mutex<Outcome?>(nil)
    private let done = DispatchSemaphore(value: 0)

    func player(_ player: Player, didReceive event: PlayerEvent) {
        switch event {
        case .endOfStream: finish(.ended)
        case .error(let error): finish(.failed(error.message))
        default: break
        }
    }

    private func finish(_ value: Outcome) {
        let first = outcome.withLock { current -> Bool in
            guard current == nil else { return false }
            current = value
            return true
        }
        if first { done.signal() }
    }

    func wait(seconds: Double) -> Outcome {
        guard done.wait(timeout: .now() + seconds) == .success else { return .timedOut }
        return outcome.withLock { $0 } ?? .timedOut
    }
}
