import Backend

/// The cast console commands (`renderers`, `cast <N|off|name|auto>`), the `c` key, the notes for
/// cast events. Runs on the ``PlayerControl`` actor like the other commands; parsing and formatting are pure.
extension CastCommands {
    /// Runs `renderers` (starts discovery; lists what was found so far) or `cast …` (asks: the
    /// `cast-started` / `cast-failed` event tells what happened).
    public static func execute(_ command: ConsoleCommand, player: Player) -> CommandOutcome {
        switch command {
        case .renderers:
            player.discoverRenderers()
            let renderers = player.renderers, casting = player.castingRenderer
            let text = renderers.isEmpty ? ["No renderers found yet (looking; 'renderers' again lists them)"] : table(renderers, casting: casting)
            return CommandOutcome(data: .renderers(WireCast.List(renderers, casting: casting)), text: text)
        case .cast(.off):
            player.stopCasting()
        case .cast(.index(let index)):
            let renderers = player.renderers
            guard renderers.indices.contains(index) else {
                player.discoverRenderers()
                return .failure("cast: no renderer \(index) (\(renderers.isEmpty ? "none found yet" : "0-\(renderers.count - 1)"); see 'renderers')")
            }
            player.cast(to: .udn(renderers[index].udn))
        case .cast(.target(let target)):
            player.cast(to: target)
        default:
            break
        }
        return .success
    }

    /// The `c` key: the first renderer, then each next one, then off (back to local playback).
    /// Without renderers it starts looking and says so.
    public static func cycle(player: Player) -> CommandOutcome {
        let renderers = player.renderers
        guard !renderers.isEmpty else {
            player.discoverRenderers()
            return CommandOutcome(text: ["Looking for renderers… (press c again once one is found)"])
        }
        let current = player.castingRenderer.flatMap { casting in renderers.firstIndex { $0.udn == casting.udn } }
        switch current {
        case nil: player.cast(to: .udn(renderers[0].udn))
        case let index? where index + 1 < renderers.count: player.cast(to: .udn(renderers[index + 1].udn))
        default: player.stopCasting()
        }
        return .success
    }

    // MARK: Formatting

    /// `* 0  Living room  uuid:…  gmediarender` (`*`: cast to now; pure).
    public static func table(_ renderers: [Renderer], casting: Renderer?) -> [String] {
        renderers.enumerated().map { index, renderer in
            (renderer.udn == casting?.udn ? "* " : "  ") + "\(index)".padded(toLength: 3) + TerminalText.escaped(renderer.friendlyName)
                + "  " + TerminalText.escaped(renderer.udn) + "  " + TerminalText.escaped(renderer.model ?? "-")
        }
    }

    /// The `--list-renderers` line: `NAME  UDN  MODEL` (two spaces) (`-` without a model; pure).
    public static func listingLine(_ renderer: Renderer) -> String {
        [renderer.friendlyName, renderer.udn, renderer.model ?? "-"].map(TerminalText.escaped).joined(separator: "  ")
    }

    /// The note for a cast event in text mode (a failure is the host's error line instead).
    public static func note(for event: CastEvent) -> String? {
        switch event {
        case .renderersChanged(let renderers):
            return renderers.isEmpty ? "Renderers: none" : "Renderers: " + renderers.map { TerminalText.escaped($0.friendlyName) }.joined(separator: ", ")
        case .castStarted(let renderer): return "Casting to \(TerminalText.escaped(renderer.friendlyName))"
        case .castEnded(let renderer, let position):
            return "Casting to \(TerminalText.escaped(renderer.friendlyName)) off; playing here" + (position.map { " from \($0.formatted(fractionDigits: 1))" } ?? "")
        case .castFailed: return nil
        }
    }
}
