/// Observation: a value of the one state, delivered now and then at each change.
extension Player {
    /// The value `read` takes from ``snapshot`` now, then each time it changes, until the player
    /// shuts down (the stream ends) or the consumer stops. Changes are coalesced: a consumer that
    /// falls behind gets the newest value, never a queue of stale ones. A setter's value arrives
    /// as soon as the setter returns; the engine's changes once the handler that made them has
    /// returned. Any thread; `read` runs under the snapshot's lock, so keep it a plain read:
    /// `for await volume in player.observe(\.volume) { … }`.
    public func observe<Value: Equatable & Sendable>(_ read: @escaping @Sendable (PlayerSnapshot) -> Value) -> AsyncStream<Value> {
        hub.watch(read)
    }

    /// ``observe(_:)-((PlayerSnapshot)->Value)`` by property: `player.observe(.volume)`.
    public func observe(_ property: PlayerProperty) -> AsyncStream<PropertyValue> { hub.watch(property.read) }

    /// The property's value now, from ``snapshot``. Any thread.
    public func value(of property: PlayerProperty) -> PropertyValue { property.read(snapshot) }
}
