/// A point or span on the media timeline, in nanoseconds like `GstClockTime`.
///
/// A plain value: safe to pass between threads. GStreamer's "none" (`GST_CLOCK_TIME_NONE`)
/// is never stored in a `MediaTime`; an unknown time is `nil` where the API allows it.
public struct MediaTime: Sendable, Hashable, Comparable, Codable, CustomStringConvertible {
    /// Signed nanoseconds (relative seeks use negative spans).
    public var nanoseconds: Int64

    /// A time from nanoseconds.
    public init(nanoseconds: Int64) { self.nanoseconds = nanoseconds }

    /// A time from milliseconds, saturating at the ends of `Int64` (no overflow trap).
    public static func milliseconds(_ ms: Int64) -> MediaTime {
        let (ns, overflow) = ms.multipliedReportingOverflow(by: 1_000_000)
        return MediaTime(nanoseconds: overflow ? (ms < 0 ? .min : .max) : ns)
    }

    /// A time from microseconds (MPRIS's unit), saturating at the ends of `Int64` (no overflow trap).
    public static func microseconds(_ us: Int64) -> MediaTime {
        let (ns, overflow) = us.multipliedReportingOverflow(by: 1000)
        return MediaTime(nanoseconds: overflow ? (us < 0 ? .min : .max) : ns)
    }

    /// A time from (possibly fractional) seconds; NaN becomes zero and infinities clamp.
    public init(seconds: Double) {
        guard seconds.isFinite else {
            nanoseconds = seconds.isNaN ? 0 : (seconds > 0 ? Int64.max : Int64.min)
            return
        }
        let ns = (seconds * 1e9).rounded()
        if ns >= Double(Int64.max) { nanoseconds = .max } else if ns <= Double(Int64.min) { nanoseconds = .min } else { nanoseconds = Int64(ns) }
    }

    /// The start of the timeline.
    public static let zero = MediaTime(nanoseconds: 0)

    /// Seconds as a floating-point number.
    public var seconds: Double { Double(nanoseconds) / 1e9 }

    /// Whole milliseconds (truncated toward zero).
    public var milliseconds: Int64 { nanoseconds / 1_000_000 }

    /// Earlier than.
    public static func < (lhs: MediaTime, rhs: MediaTime) -> Bool { lhs.nanoseconds < rhs.nanoseconds }
    /// The sum of two times.
    public static func + (lhs: MediaTime, rhs: MediaTime) -> MediaTime {
        MediaTime(nanoseconds: lhs.nanoseconds.addingReportingOverflow(rhs.nanoseconds).overflow ? (rhs.nanoseconds > 0 ? .max : .min) : lhs.nanoseconds + rhs.nanoseconds)
    }
    /// The difference of two times.
    public static func - (lhs: MediaTime, rhs: MediaTime) -> MediaTime { lhs + MediaTime(nanoseconds: rhs.nanoseconds == .min ? .max : -rhs.nanoseconds) }

    /// Clamps into `0...upper` (or `0...` when `upper` is nil).
    public func clamped(to upper: MediaTime?) -> MediaTime {
        var value = max(self, .zero)
        if let upper { value = min(value, upper) }
        return value
    }

    /// `H:MM:SS` (or `H:MM:SS.f…` with `fractionDigits` > 0), as gst-play prints times.
    /// Negative times get a leading `-`.
    public func formatted(fractionDigits: Int = 0) -> String {
        let negative = nanoseconds < 0
        let magnitude = nanoseconds.magnitude
        let totalSeconds = magnitude / 1_000_000_000
        let h = totalSeconds / 3600, m = (totalSeconds / 60) % 60, s = totalSeconds % 60
        var text = (negative ? "-" : "") + "\(h):" + pad2(m) + ":" + pad2(s)
        if fractionDigits > 0 {
            let digits = min(fractionDigits, 9)
            var divisor: UInt64 = 1
            for _ in 0..<(9 - digits) { divisor *= 10 }
            let fraction = (magnitude % 1_000_000_000) / divisor
            let raw = String(fraction)
            text += "." + String(repeating: "0", count: digits - raw.count) + raw
        }
        return text
    }

    /// `H:MM:SS.mmm`.
    public var description: String { formatted(fractionDigits: 3) }

    private func pad2(_ v: UInt64) -> String { v < 10 ? "0\(v)" : "\(v)" }
}
