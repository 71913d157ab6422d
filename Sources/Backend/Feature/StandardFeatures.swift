/// The features every ``Player`` made with ``Player/init(configuration:delegate:)`` gets, in the
/// order the core calls them. (Moves to the `Backend` umbrella target once the features are
/// targets of their own.)
public enum StandardFeatures {
    /// Fresh instances for one player.
    public static func make(for configuration: PlayerConfiguration) -> [any PlayerFeature] {
        var features: [any PlayerFeature] = []
        _ = configuration
        return features
    }
}

public extension Player {
    /// A player with the ``StandardFeatures``.
    convenience init(configuration: PlayerConfiguration = PlayerConfiguration(), delegate: (any PlayerDelegate)? = nil) {
        self.init(configuration: configuration, features: StandardFeatures.make(for: configuration), delegate: delegate)
    }
}
