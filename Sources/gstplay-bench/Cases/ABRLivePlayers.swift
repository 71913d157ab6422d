import Backend
import CGStreamer
import Foundation
import Synchronization

/// The two players of the live ABR case (``ABRLiveCase``), each run in this process for a fixed
/// time against its own trace-shaped `http_test_server.py`, sampled every 250 ms.
enum ABRLivePlayers {
    /// What one run measured (seconds unless named otherwise).
    struct Run: Sendable {
        var startup: Double?
        var stalls = 0
        var stalled = 0.0
        /// Latency to the live edge, sampled every 250 ms from the first PLAYING on.
        var latencies: [Double] = []
        var catchUps: Int?
        var error: String?
    }

    /// gstplay's `Player` (fake sinks, the standard features, its ABR and live-edge guard): the
    /// latency is the Backend's own `AdaptiveInfo.liveLatencySeconds`, stalls its `stallCount` /
    /// `stalledSeconds`.
    static func gstplay(uri: String, seconds: Double) -> Run {
        var configuration = PlayerConfiguration()
        configuration.videoSink = .description("fakesink sync=true")
        configuration.audioSink = .description("fakesink sync=true")
        let watcher = LiveWatcher()
        let player = Player(configuration: configuration, delegate: watcher)
        defer { player.shutdown() }
        let start = MonotonicClock.now()
        player.load(uri)
        var run = Run()
        while MonotonicClock.now() - start < seconds {
            usleep(250_000)
            if watcher.playingAt != nil, let latency = player.adaptiveInfo.liveLatencySeconds { run.latencies.append(latency) }
        }
        let info = player.adaptiveInfo
        run.startup = watcher.playingAt.map { $0 - start }
        (run.stalls, run.stalled, run.catchUps, run.error) = (info.stallCount, info.stalledSeconds, info.liveCatchUps, watcher.error)
        return run
    }

    /// A bare `playbin` with playbin's default adaptivedemux ABR and gst-launch's buffering
    /// policy (PAUSED below 100 %, PLAYING at 100 %), driven from its bus. Its latency is computed
    /// as the Backend computes it (`LiveEdgeGuard`): the end of the `GST_QUERY_SEEKING` window,
    /// moved on by the wall time since it last advanced, minus the position; the window is asked
    /// on a thread of its own (the query can wait for a playlist download).
    static func playbin(uri: String, seconds: Double) -> Run {
        gst_init(nil, nil)
        var run = Run()
        guard let playbin = gst_element_factory_make("playbin", nil),
              let videoSink = try? ChildSupport.makeSink(ChildSupport.sinkDescription(sync: true)),
              let audioSink = try? ChildSupport.makeSink(ChildSupport.sinkDescription(sync: true)) else {
            run.error = "no playbin"
            return run
        }
        let object = UnsafeMutableRawPointer(playbin)
        _ = gst_object_ref_sink(object)
        CGStreamer_set_string(object, "uri", uri)
        CGStreamer_set_object(object, "video-sink", UnsafeMutableRawPointer(videoSink))
        CGStreamer_set_object(object, "audio-sink", UnsafeMutableRawPointer(audioSink))
        let bus = gst_element_get_bus(playbin)!
        let window = WindowPoller(playbin: playbin)
        defer {
            gst_element_set_state(playbin, GST_STATE_NULL)  // first: ends a playlist download a window query may wait for
            window.stop()
            gst_object_unref(UnsafeMutableRawPointer(bus))
            gst_object_unref(object)
        }
        let start = MonotonicClock.now()
        _ = gst_element_set_state(playbin, GST_STATE_PLAYING)
        var stallSince: Double?
        var nextSample = start + 0.25
        var edge: (end: Double, advancedAt: Double)?
        let wanted = GstMessageType(rawValue: GST_MESSAGE_BUFFERING.rawValue | GST_MESSAGE_STATE_CHANGED.rawValue | GST_MESSAGE_ERROR.rawValue)
        while MonotonicClock.now() - start < seconds, run.error == nil {
            if let message = gst_bus_timed_pop_filtered(bus, 50_000_000, wanted) {
                let now = MonotonicClock.now()
                switch CGStreamer_message_type(message) {
                case GST_MESSAGE_BUFFERING:
                    var percent: gint = 0
                    gst_message_parse_buffering(message, &percent)
                    if percent < 100, stallSince == nil {
                        if run.startup != nil { stallSince = now; run.stalls += 1 }
                        gst_element_set_state(playbin, GST_STATE_PAUSED)
                    } else if percent >= 100 {
                        if let since = stallSince { run.stalled += now - since; stallSince = nil }
                        gst_element_set_state(playbin, GST_STATE_PLAYING)
                    }
                case GST_MESSAGE_STATE_CHANGED where CGStreamer_message_src(message) == CGStreamer_as_object(object):
                    var new = GST_STATE_NULL
                    gst_message_parse_state_changed(message, nil, &new, nil)
                    if new == GST_STATE_PLAYING, run.startup == nil { run.startup = now - start }
                case GST_MESSAGE_ERROR:
                    run.error = ChildSupport.errorText(message)
                default:
                    break
                }
                gst_message_unref(message)
            }
            let now = MonotonicClock.now()
            guard now >= nextSample else { continue }
            nextSample += 0.25
            guard run.startup != nil, let end = window.end else { continue }
            if edge?.end != end { edge = (end, now) }
            var position: gint64 = -1
            guard gst_element_query_position(playbin, GST_FORMAT_TIME, &position) != 0, position >= 0, let edge else { continue }
            run.latencies.append(max(0, edge.end + (now - edge.advancedAt) - Double(position) / 1e9))
        }
        if let since = stallSince { run.stalled += MonotonicClock.now() - since }
        return run
    }
}

/// The first PLAYING and the first error of a `Player` (any thread).
private final class LiveWatcher: PlayerDelegate {
    private let state = Mutex<(playing: Double?, error: String?)>((nil, nil))
    var playingAt: Double? { state.withLock { $0.playing } }
    var error: String? { state.withLock { $0.error } }
    func player(_ player: Player, didReceive event: PlayerEvent) {
        switch event {
        case .stateChanged(_, .playing): state.withLock { if $0.playing == nil { $0.playing = MonotonicClock.now() } }
        case .error(let error): state.withLock { if $0.error == nil { $0.error = error.message } }
        default: break
        }
    }
}

/// Asks a playbin's `GST_QUERY_SEEKING` window every 250 ms on a thread of its own; ``end`` is the
/// latest answer (seconds of stream time). Holds a reference to the playbin until ``stop()``.
private final class WindowPoller: @unchecked Sendable {
    private let latest = Mutex<Double?>(nil)
    private let stopped = Atomic<Bool>(false)
    private let done = DispatchSemaphore(value: 0)
    private let playbin: UnsafeMutablePointer<GstElement>
    var end: Double? { latest.withLock { $0 } }

    init(playbin: UnsafeMutablePointer<GstElement>) {
        self.playbin = playbin
        gst_object_ref(UnsafeMutableRawPointer(playbin))
        Thread { [self] in
            while !stopped.load(ordering: .relaxed) {
                if let window = SeekingQuery.range(of: self.playbin) { latest.withLock { $0 = window.upperBound.seconds } }
                usleep(250_000)
            }
            gst_object_unref(UnsafeMutableRawPointer(self.playbin))
            done.signal()
        }.start()
    }

    func stop() {
        stopped.store(true, ordering: .relaxed)
        done.wait()
    }
}
