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

    /// The message over a seek preview the pointer shows: `Preview 1:23`.
    public static func preview(_ time: MediaTime) -> String { "Preview \(self.time(time))" }

    /// `text` with `&`, `<`, `>` escaped for Pango markup.
    public static func escaped(_ text: String) -> String {
        text.replacingAll("&", with: "&amp;").replacingAll("<", with: "&lt;").replacingAll(">", with: "&gt;")
    }

    /// The message for a volume change: `Volume 40 %` or `Muted`. `volume` is playbin's linear
    /// volume (`PlayerEvent.volumeChanged`); the percentage shown is the perceptual (cubic) one
    /// the player reports everywhere else (`--volume`, the `volume` event, the status line, gst-play's
    /// steps): linear 0.729 is 90 %. Rounded as the status line rounds it (to 0.1, then to a whole number).
    public static func volume(_ volume: Double, muted: Bool) -> String {
        guard !muted else { return "Muted" }
        let tenths = (VolumeScale.cubic(fromLinear: volume) * 1000).rounded() / 10
        return "Volume \(Int(tenths.rounded())) %"
    }

    /// The message for a rate change: `Speed 1.5×`.
    public static func rate(_ rate: Double) -> String {
        let rounded = (rate * 100).rounded() / 100
        let text = WholeNumber.exact(rounded, in: Int.min...Int.max).map(String.init) ?? "\(rounded)"
        return "Speed \(text)×"
    }

    /// The message for an A-B loop change, as mpv words it: `A-B loop start: 0:01.5`,
    /// `A-B loop end: 0:03.0`, `Clear A-B loop`.
    public static func abLoop(_ loop: ABLoop) -> String {
        switch (loop.a, loop.b) {
        case (nil, nil): return "Clear A-B loop"
        case (let a?, nil): return "A-B loop start: \(a.formatted(fractionDigits: 1))"
        case (_, let b?): return "A-B loop end: \(b.formatted(fractionDigits: 1))" + (loop.count == 0 ? " (disabled)" : "")
        }
    }
}
