import BackendCore

/// What the on-screen display says, as Pango markup for `textoverlay` (pure; any thread;
/// unit-tested): a message line, then the position/duration and a bar.
public enum OSDText {
    /// Cells of the progress bar.
    public static let barWidth = 24

    /// `m:ss`, or `h:mm:ss` from an hour on (negative times as 0).
    public static func time(_ time: MediaTime) -> String {
        let total = max(0, Int(time.seconds.rounded(.down)))
        let (hours, minutes, seconds) = (total / 3600, total / 60 % 60, total % 60)
        let ss = seconds < 10 ? "0\(seconds)" : "\(seconds)"
        if hours == 0 { return "\(minutes):\(ss)" }
        return "\(hours):\(minutes < 10 ? "0" : "")\(minutes):\(ss)"
    }

    /// A bar of ``barWidth`` cells, `fraction` of them full (`█`), the rest light (`░`).
    public static func bar(fraction: Double) -> String {
        let filled = Int((min(max(fraction.isFinite ? fraction : 0, 0), 1) * Double(barWidth)).rounded())
        return String(repeating: "█", count: filled) + String(repeating: "░", count: barWidth - filled)
    }

    /// The progress lines: `0:03 / 0:10` and the bar (only the time when the duration is unknown).
    public static func progress(position: MediaTime, duration: MediaTime?) -> String {
        guard let duration, duration > .zero else { return time(position) }
        return "\(time(position)) / \(time(duration))\n\(bar(fraction: position.seconds / duration.seconds))"
    }

    /// The whole OSD: `message` (escaped: it may come from tags or files) over the progress
    /// lines, either may be absent; empty when both are.
    public static func markup(message: String?, progress: String?) -> String {
        [message.map(escaped), progress].compactMap { $0 }.filter { !$0.isEmpty }.joined(separator: "\n")
    }

    /// `text` with `&`, `<`, `>` escaped for Pango markup.
    public static func escaped(_ text: String) -> String {
        text.replacingAll("&", with: "&amp;").replacingAll("<", with: "&lt;").replacingAll(">", with: "&gt;")
    }

    /// The message for a volume change: `Volume 40 %` or `Muted`.
    public static func volume(_ volume: Double, muted: Bool) -> String {
        muted ? "Muted" : "Volume \(Int((volume * 100).rounded())) %"
    }

    /// The message for a rate change: `Speed 1.5×`.
    public static func rate(_ rate: Double) -> String {
        let rounded = (rate * 100).rounded() / 100
        let text = WholeNumber.exact(rounded, in: Int.min...Int.max).map(String.init) ?? "\(rounded)"
        return "Speed \(text)×"
    }
}
