import Backend

/// The `variants` and `variant N|auto` console commands, and the notes printed for adaptive
/// events. Runs on the ``PlayerControl`` actor like the other commands.
extension AdaptiveCommands {
    /// Runs `variants` / `variant`.
    public static func execute(_ command: ConsoleCommand, player: Player) -> CommandOutcome {
        let info = player.adaptiveInfo
        switch command {
        case .variants:
            guard !info.variants.isEmpty else { return .failure("variants: the media is not an adaptive stream (or its playlist is not read yet)") }
            let lines = info.variants.map { v in
                let marks = (v.index == info.current ? " (current)" : "") + (v.index == info.pinned ? " (pinned)" : "")
                return "  \(v.index): \(v.label)" + (v.width.map { w in v.height.map { " \(w)x\($0)" } ?? "" } ?? "")
                    + (v.codecs.map { " \($0)" } ?? "") + marks
            }
            let estimate = info.estimatedBandwidth.map { "estimated bandwidth \(Variant.formatBitrate($0))" } ?? "no bandwidth estimate yet"
            return CommandOutcome(data: .variants(WireAdaptive.Reply(info)),
                                              text: ["Variants (\(info.pinned == nil ? "automatic" : "pinned"), \(estimate)):"] + lines)
        case .variant(let index):
            guard !info.variants.isEmpty else { return .failure("variant: the media is not an adaptive stream (or its playlist is not read yet)") }
            if let index, !info.variants.indices.contains(index) {
                return .failure("variant: no variant \(index) (there are \(info.variants.count): 0-\(info.variants.count - 1))")
            }
            player.pinVariant(index)
            return CommandOutcome(text: [index.map { "Pinned variant \($0): \(info.variants[$0].label)" } ?? "Automatic variant selection"])
        default:
            return .success
        }
    }

    /// A human note for an adaptive event (text mode), nil when the status line says enough.
    public static func note(for event: AdaptiveEvent) -> String? {
        switch event {
        case .variantsAvailable(let variants):
            return "Adaptive stream: \(variants.count) variants (\(variants.map(\.label).joined(separator: ", ")))"
        case .variantSwitched(let from, let to, let reason):
            guard let from else { return nil }
            return "Variant: \(from.label) -> \(to.label) (\(reason.rawValue))"
        case .stallStarted:
            return "Stalled: waiting for the buffer to refill"
        case .stallEnded(let seconds):
            return "Resumed after a \(CFormat.number("%.1f", seconds)) s stall"
        case .liveCatchUp(let latency):
            return "Live: \(CFormat.number("%.1f", latency)) s behind the live edge, catching up"
        }
    }
}
