import Backend
import Glibc
import ProcessProbe

extension PlayerConfiguration {
    /// The tests' configuration: `fakesink` for video and audio (built as bins), in real time
    /// (`sync=true`) or as fast as decoding goes (`sync=false`). No display or sound card needed.
    public static func fakeSinks(sync: Bool = true) -> PlayerConfiguration {
        var configuration = PlayerConfiguration()
        configuration.videoSink = .description("fakesink sync=\(sync)")
        configuration.audioSink = .description("fakesink sync=\(sync)")
        return configuration
    }
}

extension Player {
    /// A player with ``PlayerConfiguration/fakeSinks(sync:)``, changed by `configure`, the
    /// standard features set up by `standard`, and `delegate`. When the delegate is an
    /// ``EventRecorder`` it learns the id of the player's loop thread (the one `gstplay-loop`
    /// thread that appeared while the player was made).
    public static func forTesting(_ delegate: (any PlayerDelegate)? = nil, sync: Bool = true,
                                  configure: (inout PlayerConfiguration) -> Void = { _ in },
                                  standard: (inout StandardFeatures) -> Void = { _ in }) -> Player {
        var configuration = PlayerConfiguration.fakeSinks(sync: sync)
        configure(&configuration)
        var features = StandardFeatures()
        standard(&features)
        let before = loopThreads()
        let player = Player(configuration: configuration, standard: features, delegate: delegate)
        if let recorder = delegate as? EventRecorder {
            // GLib names a thread from the thread itself, which may not have run yet under load.
            var new = loopThreads().subtracting(before)
            let deadline = ContinuousClock.now + .seconds(2)
            while new.count != 1, ContinuousClock.now < deadline {
                usleep(5_000)
                new = loopThreads().subtracting(before)
            }
            recorder.expectLoopThread(new.count == 1 ? new.first.flatMap { pid_t($0) } : nil)
        }
        return player
    }

    /// A ``forTesting(_:sync:configure:standard:)`` player for the adaptive-streaming tests: the ABR
    /// policy (``StandardFeatures/adaptivePolicy``) changed by `policy`, a 5 s network timeout.
    public static func forAdaptiveTesting(_ recorder: EventRecorder, _ policy: (inout AdaptivePolicy) -> Void = { _ in }) -> Player {
        forTesting(recorder, configure: { $0.networkTimeout = .seconds(5) }, standard: { policy(&$0.adaptivePolicy) })
    }

    /// Ids of this process's threads named `gstplay-loop` right now.
    private static func loopThreads() -> Set<String> {
        let probe = ProcessProbe.current
        return Set((probe.threadIDs ?? []).filter { probe.threadName($0) == "gstplay-loop" })
    }
}
