import BackendCore

/// AVTransport's time strings (`H+:MM:SS[.F+]`, UPnP AV `RelTime`/`TrackDuration`/`Seek` targets).
/// **Thread:** any.
enum UPnPTime {
    /// `seconds` as `H:MM:SS`, rounded to the nearest second (renderers such as gmediarender take no fractions).
    static func format(_ seconds: Double) -> String {
        let total = seconds.isFinite ? WholeNumber.clamped(seconds.rounded(), to: 0...Int.max) : 0
        let minutes = total / 60 % 60, secs = total % 60
        return "\(total / 3600):\(minutes < 10 ? "0" : "")\(minutes):\(secs < 10 ? "0" : "")\(secs)"
    }

    /// Seconds from `H+:MM:SS[.F+]` (also `H+:MM:SS.F0/F1`); nil for `NOT_IMPLEMENTED`, empty or malformed text.
    static func parse(_ text: String?) -> Double? {
        guard let text else { return nil }
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 3, let hours = Double(parts[0]), let minutes = Double(parts[1]) else { return nil }
        var secondsText = parts[2]
        if let slash = secondsText.firstIndex(of: "/"), let dot = secondsText.firstIndex(of: ".") {
            // F0/F1 fraction: "05.1/4"
            let whole = Double(secondsText[..<dot]) ?? 0
            let numerator = Double(secondsText[secondsText.index(after: dot)..<slash]) ?? 0
            let denominator = Double(secondsText[secondsText.index(after: slash)...]) ?? 1
            secondsText = Substring(String(whole + (denominator > 0 ? numerator / denominator : 0)))
        }
        guard let seconds = Double(secondsText) else { return nil }
        return hours * 3600 + minutes * 60 + seconds
    }
}
