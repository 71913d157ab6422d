/// An event payload a feature owns (``PlayerEvent/feature(_:)``): the queue's, the cache's,
/// the tracks'… The core carries it without knowing its type.
public protocol FeatureEventPayload: Sendable, Hashable {}

/// A feature's event inside a ``PlayerEvent``: the payload with its type erased, still
/// `Hashable`. Read it back with ``payload(as:)`` (or ``PlayerEvent/payload(as:)``).
public struct FeatureEvent: Sendable, Hashable {
    /// The payload.
    public let payload: any FeatureEventPayload
    /// The payload for equality and hashing (made while its type is known).
    /// (Immutable and wrapping a `Sendable` value, so safe to share.)
    nonisolated(unsafe) private let hashable: AnyHashable

    /// Wraps `payload`.
    public init(_ payload: some FeatureEventPayload) {
        self.payload = payload
        self.hashable = AnyHashable(payload)
    }

    /// The payload when it is a `Payload`, else nil.
    public func payload<Payload: FeatureEventPayload>(as type: Payload.Type) -> Payload? { payload as? Payload }

    /// Equal when the payloads are of one type and equal.
    public static func == (lhs: FeatureEvent, rhs: FeatureEvent) -> Bool { lhs.hashable == rhs.hashable }
    /// Hashes the payload.
    public func hash(into hasher: inout Hasher) { hasher.combine(hashable) }
}

public extension PlayerEvent {
    /// The feature payload of this event when it is a `.feature` event of that type, else nil:
    /// `if case .queueChanged(let queue)? = event.payload(as: QueueEvent.self) { … }`.
    func payload<Payload: FeatureEventPayload>(as type: Payload.Type) -> Payload? {
        guard case .feature(let event) = self else { return nil }
        return event.payload(as: type)
    }
}
