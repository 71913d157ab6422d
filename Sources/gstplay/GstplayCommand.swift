import ArgumentParser
import Backend
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Glibc

/// The command line (swift-argument-parser): options, validation, `--help`, `--version`,
/// `--generate-completion-script`. The async `main`; ``main()`` never returns.
@main
struct GstplayCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "gstplay",
        abstract: "Play media files and URIs with GStreamer, from a terminal, a pipe or a program (--json).",
        usage: "gstplay [options] <uri-or-path> ...",
        discussion: HelpText.discussion,
        version: "gstplay \(GstplayVersion.current)"
    )

    @Option(name: .customLong("audio-sink"), help: ArgumentHelp(
        "Audio sink: an element name or a bin description, e.g. 'pulsesink' or 'fakesink sync=true'.",
        valueName: "element"))
    var audioSink: String?

    @Option(name: .customLong("video-sink"), help: ArgumentHelp(
        "Video sink: an element name or a bin description, e.g. 'ximagesink' or 'fakevideosink'.",
        valueName: "element"))
    var videoSink: String?

    @Option(help: ArgumentHelp("Volume in percent, 0-100, on a perceptual (cubic) scale like gst-play.", valueName: "0-100"))
    var volume: Double?

    // `.unconditional`: the next argument is the value even when it starts with `-` (`--start -10`
    // reaches the validation below instead of failing as a missing value).
    @Option(parsing: .unconditional,
            help: ArgumentHelp("Start each item here: seconds (90), [H:]M:SS[.f] (1:30) or a percentage (50%).",
                               valueName: "time"))
    var start: String?

    // `.unconditional`: `--start-chapter -1` reaches the validation (a clear message, exit 2).
    @Option(name: .customLong("start-chapter"), parsing: .unconditional,
            help: ArgumentHelp("Start each item at chapter N (0-based, as 'chapters' lists them); an item without it plays from its start.",
                               valueName: "N"))
    var startChapter: String?

    // `.unconditional`: `--rate -1` works like `--rate=-1`.
    @Option(parsing: .unconditional,
            help: ArgumentHelp("Playback rate, e.g. 1.5 or 0.5; negative plays backwards (range -1 to 2, not 0).",
                               valueName: "x"))
    var rate: Double?

    @Flag(help: "Start muted.")
    var mute = false

    @Flag(name: .customLong("no-video"), help: "Disable video (no video sink, no decoding).")
    var noVideo = false

    @Flag(name: .customLong("no-audio"), help: "Disable audio (no audio sink, no decoding).")
    var noAudio = false

    @Flag(name: [.customShort("q"), .long], help: "No status line and no notes; errors are still printed.")
    var quiet = false

    @Flag(help: "Machine mode: JSON Lines events and replies on stdout, commands on stdin (see docs/PROTOCOL.md).")
    var json = false

    @Flag(name: .customLong("keep-open"), help: "At the end of an item stay paused instead of advancing or quitting.")
    var keepOpen = false

    @Flag(help: "Repeat the playlist; --loop=one repeats each item, --loop=none (the default) stops after the last.")
    var loop = false

    // `--loop=MODE` reaches here through ``FlagValueRewrite/rewrite(_:)`` (ArgumentParser has no
    // options with an optional value).
    @Option(name: .customLong(LoopArgument.hiddenName), help: .hidden)
    var loopMode: String?

    @Flag(help: "Play the items in a shuffled order (a new order on each pass with --loop).")
    var shuffle = false

    @Flag(inversion: .prefixedNo, help: "Audio items follow each other without a gap (playbin's about-to-finish).")
    var gapless = true

    @Flag(help: "Start each item where it was left last time (stored on quit or interrupt) and store where it is left now.")
    var resume = false

    @Flag(help: "Forget every stored resume position (then play the given items, if any).")
    var forget = false

    @Option(name: .customLong("position-interval"), help: ArgumentHelp(
        "Position reports (status line, JSON position events) every N milliseconds while playing.", valueName: "ms"))
    var positionInterval: UInt32 = 250

    @Option(help: ArgumentHelp("Audio-only media in a window: auto (its cover art, else a visualiser), none, or a visualiser (goom, wavescope, synaescope…). Never with --json.",
                               valueName: "name|none|auto"))
    var visualization: String?

    @OptionGroup(title: "Adaptive streaming (HLS, DASH)")
    var adaptive: AdaptiveOptions

    @OptionGroup(title: "Tracks and subtitles")
    var trackOptions: TrackOptions

    @OptionGroup(title: "Subtitles drawn on the video")
    var subtitleStyleOptions: SubtitleStyleOptions

    @OptionGroup(title: "Network and media cache")
    var network: NetworkOptions

    @OptionGroup(title: "Desktop (MPRIS)")
    var mprisOptions: MPRISOptions
    @OptionGroup(title: "Control socket")
    var control: ControlOptions

    @OptionGroup(title: "Web remote")
    var remote: RemoteOptions

    @OptionGroup(title: "Casting (UPnP/DLNA renderers)")
    var castOptions: CastOptions

    @Argument(help: ArgumentHelp("Files, directories (their files, sorted) or URIs to play in turn.",
                                 valueName: "uri-or-path"))
    var locations: [String] = []

    mutating func validate() throws {
        _ = try makeOptions()
    }

    /// The checked options; throws `ValidationError` (exit code 2) for bad values.
    func makeOptions() throws -> RunOptions {
        guard !locations.isEmpty || forget || castOptions.listRenderers else { throw ValidationError("Missing expected argument '<uri-or-path> ...'") }
        if let empty = locations.first(where: { $0.trimmingWhitespace().isEmpty }) {
            throw ValidationError("Empty location '\(empty)'")
        }
        var options = RunOptions(locations: locations)
        if noVideo && videoSink != nil { throw ValidationError("--no-video and --video-sink cannot be used together") }
        if noAudio && audioSink != nil { throw ValidationError("--no-audio and --audio-sink cannot be used together") }
        options.videoSink = try Self.sink(videoSink, disabled: noVideo, option: "--video-sink")
        options.audioSink = try Self.sink(audioSink, disabled: noAudio, option: "--audio-sink")
        if let volume {
            guard volume.isFinite, (0...100).contains(volume) else {
                throw ValidationError("--volume must be between 0 and 100 (got \(volume))")
            }
            options.volumePercent = volume
        }
        if let start {
            switch SeekArgument.parse(start) {
            case .failure(let error): throw ValidationError("--start: \(error.message)")
            case .success(.relative(let time)) where time < .zero:
                throw ValidationError("--start cannot be negative (got '\(start)')")
            case .success(.relative(let time)): options.start = .absolute(time)
            case .success(let argument): options.start = argument
            }
        }
        if let startChapter {
            guard let index = Int(startChapter), index >= 0 else {
                throw ValidationError("--start-chapter must be a chapter number, 0 or more (got '\(startChapter)')")
            }
            if start != nil { throw ValidationError("--start and --start-chapter cannot be used together") }
            options.startChapter = index
        }
        if let rate {
            let range = PlayerConfiguration().rateRange
            guard PlaybackRate.problem(with: rate, allowed: range) == nil else {
                throw ValidationError("--rate must be between \(range.lowerBound) and \(range.upperBound), at least \(PlaybackRate.minimumMagnitude) either way (not 0) (got \(rate))")
            }
            options.rate = rate
        }
        guard (10...60_000).contains(positionInterval) else {
            throw ValidationError("--position-interval must be between 10 and 60000 ms (got \(positionInterval))")
        }
        options.positionIntervalMilliseconds = positionInterval
        options.mute = mute
        options.quiet = quiet
        options.json = json
        options.keepOpen = keepOpen
        options.loop = try LoopArgument.mode(flag: loop, value: loopMode)
        options.shuffle = shuffle
        options.gapless = gapless
        options.adaptivePolicy = try adaptive.policy()
        options.tracks = try trackOptions.settings()
        options.subtitleStyle = try subtitleStyleOptions.style()
        options.network = try network.settings()
        options.resume = resume
        options.forget = forget
        options.visualization = try Self.visualization(visualization)
        options.mpris = mprisOptions.mpris
        options.ipcSocket = try control.path()
        options.remote = try remote.settings()
        options.cast = try castOptions.settings()
        return options
    }

    /// `--visualization`: `auto` when absent; a named visualiser must be an installed element.
    private static func visualization(_ text: String?) throws -> AudioVisualization {
        guard let text else { return .auto }
        guard let choice = AudioVisualization(argument: text.trimmingWhitespace()) else { throw ValidationError("--visualization needs a name, none or auto") }
        if case .visualizer(let name) = choice, !AudioVisualization.isInstalled(name) {
            throw ValidationError("--visualization: '\(name)' is not an installed GStreamer visualiser (try auto, none, or one of: \(AudioVisualization.installedVisualizers().joined(separator: ", ")))")
        }
        return choice
    }

    private static func sink(_ text: String?, disabled: Bool, option: String) throws -> SinkChoice {
        if disabled { return .disabled }
        guard let text else { return .automatic }
        let trimmed = text.trimmingWhitespace()
        guard !trimmed.isEmpty else { throw ValidationError("\(option) needs an element name or a bin description") }
        return .description(trimmed)
    }

    func run() async throws {
        let code = await App(options: try makeOptions()).run()
        Glibc.exit(code)
    }

    /// Like ArgumentParser's `main()`, through ``CommandRouting`` (the one parse/run/exit path):
    /// usage errors exit with 2 (ArgumentParser uses EX_USAGE, 64); help, version and completion
    /// scripts go to stdout with 0.
    static func main() async {
        Output.reopenClosedStandardDescriptors()
        await CommandRouting.main(Array(CommandLine.arguments.dropFirst()))
    }
}
