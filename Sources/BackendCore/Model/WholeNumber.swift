/// The one conversion of a number from outside (a control client's JSON, a D-Bus call, a file the
/// user or a server wrote) to an integer. Swift's `Int(_:)` on a `Double` traps — the process
/// dies with SIGILL — for NaN, the infinities and anything beyond the integer's range (`1e19`);
/// this answers nil instead, so the door that asked replies with its own "invalid parameter".
/// Pure; any thread.
public enum WholeNumber {
    /// `value` as a `T` when it is a whole number (`T(exactly:)`: no fraction, finite, within
    /// `T`'s range) inside `range`; nil otherwise.
    public static func exact<T: FixedWidthInteger>(_ value: Double, in range: ClosedRange<T> = T.min...T.max) -> T? {
        guard let whole = T(exactly: value), range.contains(whole) else { return nil }
        return whole
    }

    /// `value` as a `T` when `T` holds it exactly and it lies inside `range`; nil otherwise.
    public static func exact<T: FixedWidthInteger, Source: BinaryInteger>(_ value: Source, in range: ClosedRange<T> = T.min...T.max) -> T? {
        guard let whole = T(exactly: value), range.contains(whole) else { return nil }
        return whole
    }

    /// `value` truncated toward zero and clamped into `range`, for a count or an age shown to
    /// the user where any value must print: NaN gives 0 when `range` holds it, else its lower
    /// bound.
    public static func clamped<T: FixedWidthInteger>(_ value: Double, to range: ClosedRange<T> = T.min...T.max) -> T {
        guard !value.isNaN else { return range.contains(0) ? 0 : range.lowerBound }
        if value <= Double(range.lowerBound) { return range.lowerBound }
        if value >= Double(range.upperBound) { return range.upperBound }
        return T(value.rounded(.towardZero))
    }
}
