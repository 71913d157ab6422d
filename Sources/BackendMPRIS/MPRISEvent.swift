import BackendCore

/// The MPRIS feature's events, delivered as `PlayerEvent.feature(_:)` (read them with
/// `event.payload(as: MPRISEvent.self)`), on the loop thread like every event.
public enum MPRISEvent: FeatureEventPayload {
    /// The player is on the bus under `busName` (`org.mpris.MediaPlayer2.<app>.instance<pid>`).
    case exported(busName: String)
    /// The player is not on the bus, and why (no session bus, the connection failed…).
    case unavailable(reason: String)
    /// A client called `Quit` on the root interface: the application should quit.
    case quitRequested
}

/// The MPRIS feature's section of the player's snapshot (`snapshot.features[MPRISSnapshot.self]`).
public struct MPRISSnapshot: FeatureSection {
    /// The section's name in JSON.
    public static let key = "mpris"
    /// The bus name the player asked for, nil while not exported.
    public var busName: String?
    /// Creates the value.
    public init(busName: String?) { self.busName = busName }
}
