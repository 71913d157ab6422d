/// Conversions between Swift `Duration` (the API's unit for intervals) and the units
/// GLib and GStreamer take.
extension Duration {
    /// Whole milliseconds for a GLib timer (`g_timeout_source_new` takes ms), rounded up so a
    /// short interval never becomes 0, and at least 1.
    var glibMilliseconds: UInt32 {
        let (seconds, attoseconds) = components
        let ms = Double(seconds) * 1000 + (Double(attoseconds) / 1e15).rounded(.up)
        guard ms.isFinite, ms >= 1 else { return 1 }
        return ms >= Double(UInt32.max) ? .max : UInt32(ms)   // no Int64(Double) trap for huge durations
    }

    /// Nanoseconds, clamped to `Int64` (GStreamer's clock unit).
    var nanoseconds: Int64 {
        let (seconds, attoseconds) = components
        let (product, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        if overflow { return seconds < 0 ? .min : .max }
        return product.addingReportingOverflow(attoseconds / 1_000_000_000).overflow ? .max : product + attoseconds / 1_000_000_000
    }

    /// Whole seconds for a message, e.g. "45 s" (fractions shown to the millisecond).
    var formattedSeconds: String {
        let (seconds, attoseconds) = components
        let ms = attoseconds / 1_000_000_000_000_000
        return ms == 0 ? "\(seconds) s" : "\(Double(seconds) + Double(ms) / 1000) s"
    }
}
