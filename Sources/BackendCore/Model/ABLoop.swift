/// The A-B loop, with mpv's meaning (`ab-loop-a`, `ab-loop-b`, `ab-loop-count`): once both points
/// are set, playback that reaches the later point goes on from the earlier one, `count` times
/// (nil: for ever); a count of 0 keeps the points but loops no more. Seeking past the later point
/// leaves the loop (mpv's rule); playback from before the earlier point plays into it.
/// A plain value; any thread.
public struct ABLoop: Sendable, Hashable {
    /// The A point (mpv's `ab-loop-a`), nil when unset (`no`).
    public var a: MediaTime?
    /// The B point (mpv's `ab-loop-b`), nil when unset (`no`).
    public var b: MediaTime?
    /// Loops left (mpv's `ab-loop-count`): nil is `inf`; each jump back takes one; 0 loops no more.
    public var count: Int?

    /// A loop with these points and count (no points: no loop).
    public init(a: MediaTime? = nil, b: MediaTime? = nil, count: Int? = nil) {
        self.a = a
        self.b = b
        self.count = count
    }

    /// Both points are set and loops are left.
    public var isActive: Bool { a != nil && b != nil && count != 0 }

    /// The looped span, earlier point first (points given in either order loop the same span,
    /// as in mpv); nil when the loop is not active.
    public var span: (start: MediaTime, end: MediaTime)? {
        guard isActive, let a, let b else { return nil }
        return (min(a, b), max(a, b))
    }
}
