import ArgumentParser
import Backend

/// `--sub-visibility`, `--sub-scale`, `--sub-position`: how drawn subtitles look. Parsed by
/// ArgumentParser; any thread.
struct SubtitleStyleOptions: ParsableArguments {
    @Option(name: .customLong("sub-visibility"), help: ArgumentHelp(
        "Draw subtitles on the video (yes, the default with a window) or not (cue lines still print).", valueName: "yes|no"))
    var visibility: String?

    @Option(name: .customLong("sub-scale"), help: ArgumentHelp("Size of drawn subtitles (1 = Sans 28 at 640 px wide video).", valueName: "F"))
    var scale: Double?

    @Option(name: .customLong("sub-position"), help: ArgumentHelp("Height of drawn subtitles: 100 the bottom, 0 the top (mpv's sub-pos).", valueName: "0-100"))
    var position: Double?

    /// The checked style; `ValidationError` (exit 2) for bad values.
    func style() throws -> SubtitleStyle {
        var style = SubtitleStyle()
        switch visibility?.lowercased() {
        case nil, "yes", "on": break
        case "no", "off": style.visible = false
        default: throw ValidationError("--sub-visibility must be yes or no (got '\(visibility ?? "")')")
        }
        if let scale {
            guard scale.isFinite, (0.1...10).contains(scale) else { throw ValidationError("--sub-scale must be within 0.1…10 (got \(scale))") }
            style.scale = scale
        }
        if let position {
            guard position.isFinite, (0...100).contains(position) else { throw ValidationError("--sub-position must be within 0…100 (got \(position))") }
            style.position = position
        }
        return style
    }
}
