/// The identity of one load. Every ``Player/load(_:startAt:)`` (and ``Player/loadAsync(_:startAt:)``),
/// every load a feature makes (``FeatureTransport/load(_:start:)``, a play queue's next item, say)
/// and every gapless hand-over to new media gets a new one, counting up from 1 in each player.
/// Every event raised while that media is current carries it (``PlayerEventRecord``).
///
/// A plain value: safe to pass between threads. Encodes as its number.
public struct LoadID: RawRepresentable, Sendable, Hashable, Comparable, Codable, CustomStringConvertible {
    /// The number: 1 for a player's first load, one more for each later one.
    public let rawValue: UInt64

    /// The identity with this number.
    public init(rawValue: UInt64) { self.rawValue = rawValue }

    /// The number, in decimal.
    public var description: String { String(rawValue) }

    /// Earlier loads order first.
    public static func < (lhs: LoadID, rhs: LoadID) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// An event with the identity of the load it belongs to: what ``Player/records`` yields and
/// ``PlayerDelegate/player(_:didReceive:loadID:)`` receives. ``Player/events`` yields the same
/// events without it. A plain value; any thread.
public struct PlayerEventRecord: Sendable, Hashable {
    /// The load that was current when the event was raised; nil before the player's first load
    /// (``PlayerEvent/initialized``, ``PlayerEvent/sinksChosen(video:audio:reason:)``…).
    public let loadID: LoadID?
    /// The event itself.
    public let event: PlayerEvent
    /// The player's snapshot (``Player/snapshot``, feature sections included) as it stood when the
    /// event was raised on the loop thread: what was current for this event (the play queue's
    /// current item for its ``PlayerEvent/uriLoaded(_:)``, say), however late it is consumed.
    public let snapshot: PlayerSnapshot

    /// A record of `event`, raised while `loadID` was current, when the player's snapshot was `snapshot`.
    public init(loadID: LoadID?, event: PlayerEvent, snapshot: PlayerSnapshot = PlayerSnapshot()) {
        self.loadID = loadID
        self.event = event
        self.snapshot = snapshot
    }
}
