import Backend
import BackendControl

/// `gstplay --list-renderers`: discovery for `--discover-time` seconds on a player that plays
/// nothing (no sinks), then one line per renderer (or one `renderers` JSON line with `--json`).
/// Exit 0 when one was found, ``ExitStatus/noRenderers`` otherwise.
enum RendererListing {
    public static func run(options: RunOptions, output: Output) async -> Int32 {
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
