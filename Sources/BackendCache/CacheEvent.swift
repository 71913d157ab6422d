import BackendCore

/// The media cache's events, carried by `PlayerEvent.feature(_:)`: read them with
/// `event.payload(as: CacheEvent.self)`. Published on the loop thread, delivered like every event.
public enum CacheEvent: FeatureEventPayload {
    /// The cache's verdict on the loaded URI changed: hit, miss, storing, stored, discarded.
    case status(CacheStatus)
}

/// The cache's verdict is the `cache` section of the statistics (``PlayerStatistics/features``).
extension CacheStatus: FeatureSection {
    /// `"cache"`.
    public static var key: String { "cache" }
}

public extension PlayerStatistics {
    /// What the media cache did with this item (nil without a cache or for local files): the
    /// statistics' `cache` section, written by ``CacheFeature``.
    var cache: CacheStatus? {
        get { features[CacheStatus.self] }
        set { features[CacheStatus.self] = newValue }
    }
}
