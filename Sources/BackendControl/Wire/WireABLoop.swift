import Backend

/// The `ab-loop` event's fields and the A-B loop commands' reply data:
/// `{"a": 1.5, "b": 2.5, "count": "inf"}` (points null when unset, count a number or `"inf"`).
/// A plain value; any thread.
public struct WireABLoop: Encodable, Equatable, Sendable {
    /// Point A, in seconds (null: unset).
    public var a: Seconds
    /// Point B, in seconds (null: unset).
    public var b: Seconds
    /// The loops left (nil: without end, `"inf"`).
    public var count: Int?

    /// The fields of `loop`.
    public init(_ loop: ABLoop) {
        a = Seconds(loop.a)
        b = Seconds(loop.b)
        count = loop.count
    }

    private enum Keys: String, CodingKey { case a, b, count }

    /// `{"a": …, "b": …, "count": …}`, the count `"inf"` when nil.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Keys.self)
        try container.encode(a, forKey: .a)
        try container.encode(b, forKey: .b)
        if let count { try container.encode(count, forKey: .count) } else { try container.encode("inf", forKey: .count) }
    }
}
