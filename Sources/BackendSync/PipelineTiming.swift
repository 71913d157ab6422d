import BackendCore
import CGStreamer

/// What syncing derives from the pipeline's times (``FeatureContext/pipeline``'s clock operations,
/// FeaturePipeline+Clock.swift in the core). **Thread:** loop thread.
extension FeaturePipeline {
    /// The running time of clock time `now` for this pipeline: while PLAYING, `now - base`;
    /// otherwise the running time it paused at.
    func runningTime(at now: UInt64, playing: Bool) -> UInt64 {
        playing ? now &- baseTime : startTime
    }
}
