import Backend
import Dispatch

/// `child player CLIP`: the Backend without the CLI. One ``Player`` plays the clip to the end;
/// options switch Backend features off to measure what each costs (variants the Backend owner
/// can apply: `--keep-pitch false` drops the `scaletempo` audio filter, `--stats 0` the
/// statistics timer, `--tick MS` changes the position interval).
enum PlayerChild {
    static func run(_ arguments: ChildArguments) throws -> Int32 {
        let clip = try arguments.clip()
        var configuration = ChildSupport.configuration(sync: try arguments.bool("sync", default: true))
        configuration.keepPitch = try arguments.bool("keep-pitch", default: configuration.keepPitch)
        configuration.statisticsInterval = .milliseconds(try arguments.int("stats", default: 1000))
        configuration.positionInterval = .milliseconds(try arguments.int("tick", default: 250))
        if try arguments.bool("delegate-queue", default: false) {
            configuration.delegateQueue = DispatchQueue(label: "gstplay-bench.delegate")
        }
        let watcher = EndCounter()
        let player = Player(configuration: configuration, delegate: watcher)
        player.load(clip)
        let timeout = try arguments.double("timeout", default: 600)
        let finished = watcher.wait(forFinished: 1, seconds: timeout)
        let threads = ChildSupport.threadReport() // before teardown: the streaming threads still exist
        player.shutdown()
        let (ended, _, firstError) = watcher.counts
        guard finished else { throw BenchError("no end of stream within \(Int(timeout)) s") }
        guard ended == 1 else { throw BenchError("playback error: \(firstError ?? "?")") }
        ChildSupport.emit([("eos", "1"), ("threads", threads)])
        return 0
    }
}
