import FoundationEssentials
import Backend
import BackendControl

/// The one-line TTY status: state, `H:MM:SS / H:MM:SS`, a progress bar fitted to the terminal
/// width, and buffering %, rate, volume and mute when they are not the defaults — all read from
/// the player's ``PlayerSnapshot`` and ``PlayerStatistics``, each held whole as the player gave
/// it at the last redraw. Pure formatting (ASCII only, so characters equal columns); any thread.
struct StatusLine: Equatable, Sendable {
    /// What the player knows (``Player/snapshot``): state, position, duration, buffering level
    /// (shown while below 100), rate, volume, mute, the adaptive stream's variant.
    var snapshot = PlayerSnapshot()
    /// The player's statistics (``Player/statistics``): dropped frames (shown when non-zero) and
    /// the bitrate (shown when known).
    var statistics = PlayerStatistics()

    /// The adaptive stream's current variant, e.g. `480p 1.0 Mb/s`, when known.
    var variant: String? { snapshot.features[AdaptiveInfo.self]?.currentVariant?.label }
    /// Video frames dropped so far.
    var droppedFrames: UInt64 { statistics.droppedFrames }
    /// The current bitrate in bits/s, else the average one.
    var bitrate: UInt64? { statistics.bitrate ?? statistics.averageBitrate }

    /// The snapshot's linear volume as the perceptual (cubic) percentage shown.
    var volumePercent: Int { Int(Wire.volumePercent(linear: snapshot.volume).rounded()) }

    /// The narrowest progress bar worth drawing (brackets included).
    static let minimumBarWidth = 12

    /// The state as a capitalised word.
    static func label(_ state: PlayerState) -> String {
        let raw = state.rawValue
        return raw.prefix(1).uppercased() + raw.dropFirst()
    }

    /// `0:00:03 / 0:00:10`; an unknown duration prints as `-:--:--`.
    var times: String {
        (snapshot.position ?? .zero).formatted() + " / " + (snapshot.duration?.formatted() ?? "-:--:--")
    }

    /// The chapter playing, `ch 3/5 Middle, part one`, from the snapshot's chapters section.
    var chapter: String? {
        guard let section = snapshot.features[ChaptersSnapshot.self], let current = section.currentChapter else { return nil }
        return "ch \(current.index + 1)/\(section.chapters.count) " + TerminalText.escaped(current.displayTitle)
    }

    /// The renderer the media plays on, `→ Living room`, from the snapshot's cast section.
    var castTarget: String? {
        snapshot.features[CastSnapshot.self]?.casting.map { "→ " + TerminalText.escaped($0.friendlyName) }
    }

    /// The sync state, `⇄ HOST:PORT` while locked to a leader, `⇄ lost HOST:PORT` otherwise, `⇉ leading`
    /// for a leader, from the snapshot's sync section.
    var sync: String? {
        guard let section = snapshot.features[SyncSnapshot.self] else { return nil }
        guard section.isFollower else { return "⇉ leading" }
        return section.locked ? "⇄ " + section.leader : "⇄ lost " + section.leader
    }

    /// The non-default extras: `→ NAME` while casting, the media's "Artist – Title" (``nowPlaying``), the chapter, `buffering 40%`,
    /// `rate 1.5`, `volume 80%`, `muted`, then the statistics `dropped 3` and `128 kb/s` (dropped before
    /// the others when space runs out).
    var extras: [String] {
        var parts: [String] = []
        if let castTarget { parts.append(castTarget) }
        if let sync { parts.append(sync) }
        if let nowPlaying { parts.append(nowPlaying) }
        if let chapter { parts.append(chapter) }
        if snapshot.bufferingPercent < 100 { parts.append("buffering \(snapshot.bufferingPercent)%") }
        if let variant { parts.append(variant) }
        if snapshot.rate != 1 { parts.append("rate " + Self.formatRate(snapshot.rate)) }
        if volumePercent != 100 { parts.append("volume \(volumePercent)%") }
        if snapshot.muted { parts.append("muted") }
        if droppedFrames > 0 { parts.append("dropped \(droppedFrames)") }
        if let bitrate, bitrate > 0 { parts.append("\((bitrate + 500) / 1000) kb/s") }
        return parts
    }

    /// `1.5`, `0.9`, `-1`, `2`: up to two decimals, no trailing zeros (`printf`'s `%g` for a
    /// rate no player accepts: NaN, infinite or beyond ±1e13, instead of an `Int` trap).
    static func formatRate(_ rate: Double) -> String { RateStep.text(rate) }

    /// A bar of `width` columns (brackets included): `[=====>    ]`; empty when the duration is unknown.
    static func bar(width: Int, position: MediaTime?, duration: MediaTime?) -> String {
        let inner = max(0, width - 2)
        var filled = 0
        if let duration, duration > .zero {
            let fraction = min(max((position ?? .zero).seconds / duration.seconds, 0), 1)
            filled = Int((Double(inner) * fraction).rounded(.down))
        }
        let body: String
        if filled == 0 {
            body = String(repeating: " ", count: inner)
        } else if filled >= inner {
            body = String(repeating: "=", count: inner)
        } else {
            body = String(repeating: "=", count: filled - 1) + ">" + String(repeating: " ", count: inner - filled)
        }
        return "[" + body + "]"
    }

    /// The line for a terminal `columns` wide, at most `columns - 1` characters so the cursor
    /// never wraps. The bar takes whatever room is left; it is dropped first, then the extras,
    /// then the text is cut.
    func render(columns: Int) -> String {
        let limit = max(1, columns - 1)
        let head = Self.label(snapshot.state).padded(toLength: 9) + " " + times
        let tail = extras.joined(separator: " ")
        let fixed = head.count + (tail.isEmpty ? 0 : tail.count + 1)
        if fixed + 1 + Self.minimumBarWidth <= limit {
            let barWidth = limit - fixed - 1
            let bar = Self.bar(width: barWidth, position: snapshot.position, duration: snapshot.duration)
            return head + " " + bar + (tail.isEmpty ? "" : " " + tail)
        }
        let text = fixed <= limit ? head + (tail.isEmpty ? "" : " " + tail) : head
        return text.count <= limit ? text : String(text.prefix(limit))
    }
}
