import BackendCore

/// ``AdaptiveInfo`` is the adaptive feature's section of `PlayerSnapshot.features`, read by
/// `Player.adaptiveInfo`.
extension AdaptiveInfo: FeatureSection {
    /// `"adaptive"`.
    public static let key = "adaptive"
}

/// ``ABRMetrics`` is the adaptive feature's section of `PlayerStatistics.features` (adaptive
/// media only).
extension ABRMetrics: FeatureSection {
    /// `"adaptive"`.
    public static let key = "adaptive"
}

/// Adaptive streaming's events travel as `PlayerEvent.feature(_:)`; read them with
/// `event.payload(as: AdaptiveEvent.self)` or `PlayerEvent.adaptive`.
extension AdaptiveEvent: FeatureEventPayload {}

public extension PlayerEvent {
    /// The adaptive-streaming payload of this event, nil for any other event.
    var adaptive: AdaptiveEvent? { payload(as: AdaptiveEvent.self) }
}

public extension PlayerStatistics {
    /// Seed 004's ABR metrics (MaxProfile, RequestedProfile, requested segment): the adaptive
    /// feature's section of `PlayerStatistics.features`; nil unless the media is an adaptive stream.
    var adaptive: ABRMetrics? {
        get { features[ABRMetrics.self] }
        set { features[ABRMetrics.self] = newValue }
    }
}
