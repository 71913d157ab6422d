import Backend
import CGStreamer
import Dispatch
import Foundation
import Synchronization

/// `child seek CLIP`: seek latency, in one process, of the same accurate flushing seeks in PAUSED
/// issued (a) through the Backend API — `player.seek(to:)` until the delegate gets `.seekDone` —
/// and (b) directly on a separate `playbin` — `gst_element_seek_simple` until the bus pops
/// ASYNC_DONE (the floor). The paths take turns seek by seek (rotating who goes first), with the
/// same pseudo-random positions. Prints `samples.<path>=ms,ms,…` and `error.<path>=ms,…`
/// (|landed − requested|).
enum SeekChild {
    static func run(_ arguments: ChildArguments) throws -> Int32 {
        let clip = try arguments.clip()
        let count = try arguments.int("count", default: 50)
        let seed = UInt64(try arguments.int("seed", default: 20_240_601))
        let settle = try arguments.double("settle-ms", default: 20)
        let names = (arguments.options["paths"] ?? "backend,floor").split(separator: ",").map(String.init)
        gst_init(nil, nil)

        var paths: [any SeekPath] = []
        for name in names {
            switch name {
            case "floor": paths.append(try FloorSeekPath(clip: clip))
            case "backend": paths.append(try BackendSeekPath(name: name, clip: clip, keepPitch: true))
            case "backend-nopitch": paths.append(try BackendSeekPath(name: name, clip: clip, keepPitch: false))
            default: throw BenchError("unknown seek path '\(name)'")
            }
        }
        defer { for path in paths { path.close() } }
        guard let duration = paths.map(\.duration).min(), duration > 1 else { throw BenchError("clip too short or no duration") }

        var random = SeededGenerator(seed: seed)  // the same positions every run
        let positions = (0..<count).map { _ in duration * (0.02 + 0.93 * Double.random(in: 0..<1, using: &random)) }
        var latencies = Array(repeating: [Double](), count: paths.count)
        var errors = Array(repeating: [Double](), count: paths.count)
        for (index, target) in positions.enumerated() {
            for turn in 0..<paths.count {
                let which = (turn + index) % paths.count
                let (latency, landed) = try paths[which].seek(to: target)
                latencies[which].append(latency * 1000)
                errors[which].append(abs(landed - target) * 1000)
                if settle > 0 { usleepSeconds(settle / 1000) }
            }
        }
        var lines: [(String, String)] = [("positions", positions.map { format($0, 3) }.joined(separator: ","))]
        for (index, path) in paths.enumerated() {
            lines.append(("samples.\(path.name)", latencies[index].map { format($0, 3) }.joined(separator: ",")))
            lines.append(("error.\(path.name)", errors[index].map { format($0, 3) }.joined(separator: ",")))
        }
        ChildSupport.emit(lines)
        return 0
    }

    static func usleepSeconds(_ seconds: Double) { usleep(useconds_t(seconds * 1e6)) }
    static func format(_ value: Double, _ digits: Int) -> String { String(format: "%.\(digits)f", value) }
}

/// One way of seeking a paused, prerolled pipeline.
protocol SeekPath: AnyObject {
    var name: String { get }
    /// Seconds.
    var duration: Double { get }
    /// Seeks accurately and waits for it to land: (latency s, landed position s).
    func seek(to seconds: Double) throws -> (Double, Double)
    func close()
}

/// The floor: `playbin` driven directly on this thread.
final class FloorSeekPath: SeekPath {
    let name = "floor"
    private(set) var duration: Double = 0
    private let playbin: UnsafeMutablePointer<GstElement>
    private let bus: UnsafeMutablePointer<GstBus>

    init(clip: String) throws {
        guard let element = gst_element_factory_make("playbin", "bench-floor") else { throw BenchError("no playbin") }
        _ = gst_object_ref_sink(UnsafeMutableRawPointer(element))
        playbin = element
        let object = UnsafeMutableRawPointer(element)
        CGStreamer_set_string(object, "uri", try ChildSupport.uri(forPath: clip))
        CGStreamer_set_object(object, "video-sink", UnsafeMutableRawPointer(try ChildSupport.makeSink(ChildSupport.sinkDescription(sync: true))))
        CGStreamer_set_object(object, "audio-sink", UnsafeMutableRawPointer(try ChildSupport.makeSink(ChildSupport.sinkDescription(sync: true))))
        bus = gst_element_get_bus(element)
        gst_element_set_state(element, GST_STATE_PAUSED)
        try waitAsyncDone()
        var value: gint64 = 0
        guard gst_element_query_duration(element, GST_FORMAT_TIME, &value) != 0 else { throw BenchError("floor: no duration") }
        duration = Double(value) / 1e9
    }

    private func waitAsyncDone() throws {
        let wanted = GstMessageType(rawValue: GST_MESSAGE_ASYNC_DONE.rawValue | GST_MESSAGE_ERROR.rawValue)
        guard let message = gst_bus_timed_pop_filtered(bus, 20 * CGStreamer_SECOND(), wanted) else {
            throw BenchError("floor: no ASYNC_DONE within 20 s")
        }
        defer { gst_message_unref(message) }
        if CGStreamer_message_type(message) == GST_MESSAGE_ERROR { throw BenchError("floor: \(ChildSupport.errorText(message))") }
    }

    func seek(to seconds: Double) throws -> (Double, Double) {
        while let stale = gst_bus_pop(bus) { gst_message_unref(stale) }
        let flags = GstSeekFlags(rawValue: GST_SEEK_FLAG_FLUSH.rawValue | GST_SEEK_FLAG_ACCURATE.rawValue)
        let started = MonotonicClock.now()
        guard gst_element_seek_simple(playbin, GST_FORMAT_TIME, flags, gint64(seconds * 1e9)) != 0 else {
            throw BenchError("floor: seek to \(seconds) refused")
        }
        try waitAsyncDone()
        let landedAt = MonotonicClock.now()
        var position: gint64 = 0
        _ = gst_element_query_position(playbin, GST_FORMAT_TIME, &position)
        return (landedAt - started, Double(position) / 1e9)
    }

    func close() {
        gst_element_set_state(playbin, GST_STATE_NULL)
        gst_object_unref(UnsafeMutableRawPointer(bus))
        gst_object_unref(UnsafeMutableRawPointer(playbin))
    }
}

/// The Backend: `Player.seek(to:)` until `.seekDone` reaches the delegate (on the loop thread,
/// where the time is taken). Autoplay off keeps the pipeline PAUSED; the seek throttle is 1 ms
/// (seeks here are always further apart, so none is delayed or coalesced).
final class BackendSeekPath: SeekPath {
    let name: String
    private(set) var duration: Double = 0
    private let player: Player
    private let watcher = SeekWatcher()

    init(name: String, clip: String, keepPitch: Bool) throws {
        self.name = name
        var configuration = ChildSupport.configuration(sync: true)
        configuration.autoplay = false
        configuration.seekThrottle = .milliseconds(1)
        configuration.defaultSeekMode = .accurate
        configuration.keepPitch = keepPitch
        player = Player(configuration: configuration, delegate: watcher)
        player.load(clip)
        guard watcher.prerolled.wait(timeout: .now() + 20) == .success else { throw BenchError("\(name): no preroll within 20 s") }
        if let failure = watcher.failure { throw BenchError("\(name): \(failure)") }
        guard let known = player.duration else { throw BenchError("\(name): no duration") }
        duration = known.seconds
    }

    func seek(to seconds: Double) throws -> (Double, Double) {
        let before = watcher.doneCount
        let started = MonotonicClock.now()
        player.seek(to: MediaTime(seconds: seconds), mode: .accurate)
        while watcher.doneCount == before {
            guard watcher.seekDone.wait(timeout: .now() + 10) == .success else { throw BenchError("\(name): no seek done within 10 s") }
        }
        if let failure = watcher.failure { throw BenchError("\(name): \(failure)") }
        let (landedAt, position) = watcher.lastDone
        return (landedAt - started, position)
    }

    func close() { player.shutdown() }
}

/// Records when `.seekDone` arrives (loop thread) and wakes the bench thread.
final class SeekWatcher: PlayerDelegate {
    let prerolled = DispatchSemaphore(value: 0)
    let seekDone = DispatchSemaphore(value: 0)
    private let state = Mutex<(count: Int, at: Double, position: Double, failure: String?)>((0, 0, 0, nil))

    var doneCount: Int { state.withLock { $0.count } }
    var lastDone: (Double, Double) { state.withLock { ($0.at, $0.position) } }
    var failure: String? { state.withLock { $0.failure } }

    func player(_ player: Player, didReceive event: PlayerEvent) {
        switch event {
        case .seekDone(let position):
            let now = MonotonicClock.now()
            state.withLock { $0.count += 1; $0.at = now; $0.position = position.seconds }
            seekDone.signal()
        case .mediaInfo:
            prerolled.signal()
        case .error(let error):
            state.withLock { $0.failure = error.message }
            prerolled.signal()
            seekDone.signal()
        default:
            break
        }
    }
}
