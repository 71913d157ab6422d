import Backend

/// The `ab-loop` event's fields and the A-B loop commands' reply data:
/// `{"a": 1.5, "b": 2.5, "count": "inf"}` (points null when unset, count a number or `"inf"`).
/// A plain value; any thread.
public struct WireABLoop: Encodable, Equatable, Sendable {
    package var a: Seconds
    package var b: Seconds
    package var count: Int?

    package init(_ loop: ABLoop) {
        a = Seconds(loop.a)
        b = Seconds(loop.b)
        count = loop.count
    }

    private enum Keys: String, CodingKey { case a, b, count }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Keys.self)
        try container.encode(a, forKey: .a)
        try container.encode(b, forKey: .b)
        if let count { try container.encode(count, forKey: .count) } else { try container.encode("inf", forKey: .count) }
    }
}
