/// Conversions between Swift `Duration` (the API's unit for intervals) and the units
/// GStreamer takes (GLib's timer milliseconds: GLibSupport's `Duration.glibMilliseconds`).
extension Duration {
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
