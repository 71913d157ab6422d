/// What the adaptive-streaming monitor reports, carried by `PlayerEvent.feature(_:)` (`PlayerEvent.adaptive`).
///
/// Raised on the loop thread by `AdaptiveMonitor` from the master playlist, the demuxer's
/// `adaptive-streaming-statistics` messages and `GST_MESSAGE_BUFFERING`.
public enum AdaptiveEvent: Sendable, Hashable {
    /// The master playlist (or DASH manifest) was read: its variants, lowest bandwidth first.
    case variantsAvailable([Variant])
    /// Downloads moved to another variant (`from` is nil for the first one).
    case variantSwitched(from: Variant?, to: Variant, reason: VariantSwitchReason)
    /// Playback ran out of buffer after it had started (seed 004: `Player.pause(cause = STALL)`).
    case stallStarted
    /// The buffer refilled (or the stream ended) after a stall; playback resumes.
    case stallEnded(seconds: Double)
    /// A live stream fell `latency` seconds behind its edge (over the catch-up threshold of
    /// ``AdaptiveInfo/liveLatencyBound``) and seeks to it; downloads restart on the start variant.
    case liveCatchUp(latency: Double)
}
