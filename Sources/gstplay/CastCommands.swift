import Backend
import BackendControl

/// The cast console commands (`renderers`, `cast <N|off|name|auto>`), the `c` key, the notes for
/// cast events. Runs on the CLI actor like the other commands; parsing and formatting are pure.
extension CastCommands {
    /// Runs `renderers` (starts discovery; lists what was found so far) or `cast …` (asks: the
    /// `cast-started` / `cast-failed` event tells what happened).
    static func execute(_ command: ConsoleCommand, player: Player) -> PlaybackController.Outcome {
        switch command {
        case .renderers:
            player.discoverRenderers()
            let renderers = player.renderers, casting = player.castingRenderer
            let text = renderers.isEmpty ? ["No renderers found yet (looking; 'renderers' again lists them)"] : table(renderers, casting: casting)
            return PlaybackController.Outcome(data: .renderers(WireCast.List(renderers, casting: casting)), text: text)
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
    static func cycle(player: Player) -> PlaybackController.Outcome {
        let renderers = player.renderers
        guard !renderers.isEmpty else {
            player.discoverRenderers()
            return PlaybackController.Outcome(text: ["Looking for renderers… (press c again once one is found)"])
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
    static func table(_ renderers: [Renderer], casting: Renderer?) -> [String] {
        renderers.enumerated().map { index, renderer in
            (renderer.udn == casting?.udn ? "* " : "  ") + "\(index)".padded(toLength: 3) + TerminalText.escaped(renderer.friendlyName)
                + "  " + TerminalText.escaped(renderer.udn) + "  " + TerminalText.escaped(renderer.model ?? "-")
        }
    }

    /// The `--list-renderers` line: `NAME  UDN  MODEL` (two spaces) (`-` without a model; pure).
    static func listingLine(_ renderer: Renderer) -> String {
        [renderer.friendlyName, renderer.udn, renderer.model ?? "-"].map(TerminalText.escaped).joined(separator: "  ")
    }

    /// The note for a cast event in text mode (a failure is an error line instead: ``PlaybackController``).
    static func note(for event: CastEvent) -> String? {
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

/// `gstplay --list-renderers`: discovery for `--discover-time` seconds on a player that plays
/// nothing (no sinks), then one line per renderer (or one `renderers` JSON line with `--json`).
/// Exit 0 when one was found, ``ExitStatus/noRenderers`` otherwise.
enum RendererListing {
    static func run(options: RunOptions, output: Output) async -> Int32 {
        var configuration = PlayerConfiguration()
        configuration.videoSink = .disabled
        configuration.audioSink = .disabled
        configuration.positionInterval = .zero
        var standard = StandardFeatures()
        standard.cast = options.cast.castSettings
        let player = Player(configuration: configuration, standard: standard)
        player.discoverRenderers()
        try? await Task.sleep(for: .seconds(options.cast.discoverSeconds))
        let renderers = player.renderers
        player.shutdown()
        if options.json {
            output.out(WireCast.line(for: .renderersChanged(renderers)))
        } else {
            output.out(lines: renderers.map(CastCommands.listingLine))
            if renderers.isEmpty && !options.quiet { output.err("gstplay: no renderers found within \(options.cast.discoverSeconds) s") }
        }
        return renderers.isEmpty ? ExitStatus.noRenderers : ExitStatus.success
    }
}
