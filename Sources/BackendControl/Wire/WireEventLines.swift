import Backend

/// A player's events as the protocol's JSON lines, in order, for one event stream: each event's
/// line (``WireEvents/line(for:item:loadID:)``; empty for an event without one) and, after a
/// buffering event, the `message` event the protocol adds ("Buffering N%" below 100 %,
/// "Buffering complete" when a period of buffering ends). Keeps the one bit of state that needs
/// (whether the last buffering level was below 100 %), so use one per stream of events.
///
/// **Thread:** its owner's (a value; not shared).
public struct WireEventLines: Sendable {
    /// The last buffering event was below 100 % (for "Buffering complete").
    private var wasBuffering = false

    /// A stream that has not buffered yet.
    public init() {}

    /// The lines for `event`: its own line (possibly empty: no wire form), then its `message`
    /// line if it makes one. `item` is the playlist position (0-based) and size, `loadID` the load
    /// it belongs to (see ``WireEvents/line(for:item:loadID:)``).
    public mutating func lines(for event: PlayerEvent, item: (index: Int, count: Int)?, loadID: LoadID?) -> [String] {
        let line = WireEvents.line(for: event, item: item, loadID: loadID)
        guard let message = bufferingText(event) else { return [line] }
        return [line, WireEvents.message(message)]
    }

    /// The protocol's `message` text for a buffering event: "Buffering N%" below 100,
    /// "Buffering complete" when a period of buffering ends (the player reports the levels).
    private mutating func bufferingText(_ event: PlayerEvent) -> String? {
        guard case .buffering(let percent) = event else { return nil }
        defer { wasBuffering = percent < 100 }
        if percent < 100 { return "Buffering \(percent)%" }
        return wasBuffering ? "Buffering complete" : nil
    }
}
