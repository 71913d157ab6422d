/// Swift `Duration` (the API's unit for intervals) in the unit GLib's timers take.
extension Duration {
    /// Whole milliseconds for a GLib timer (`g_timeout_source_new` takes ms), rounded up so a
    /// short interval never becomes 0, and at least 1.
    package var glibMilliseconds: UInt32 {
        let (seconds, attoseconds) = components
        let ms = Double(seconds) * 1000 + (Double(attoseconds) / 1e15).rounded(.up)
        guard ms.isFinite, ms >= 1 else { return 1 }
        return ms >= Double(UInt32.max) ? .max : UInt32(ms)   // no Int64(Double) trap for huge durations
    }
}
