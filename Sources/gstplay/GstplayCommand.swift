import ArgumentParser
import Backend
import BackendControl
import FoundationEssentials
import Glibc

/// The command line (swift-argument-parser): options, validation, `--help`, `--version`,
/// `--generate-completion-script`. The synchronous `main`; ``main()`` never returns.
@main
struct GstplayCommand: AsyncParsableCommand {
    /// `--help` is short and points to `gstplay help keys|commands`; the man page (made from
    /// `--experimental-dump-help`) carries the key and console-command tables too.
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            commandName: "gstplay",
            abstract: "Play media files and URIs with GStreamer, from a terminal, a pipe or a program (--json).",
            usage: "gstplay [options] <uri-or-path> ...",
            discussion: HelpText.discussion(full: CommandLine.arguments.contains("--experimental-dump-help")),
            version: "gstplay \(GstplayVersion.current)"
        )
    }

    @OptionGroup(title: "Playback")
    var playback: PlaybackOptions

    @OptionGroup(title: "Output")
    var output: OutputOptions

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
    @OptionGroup(title: "Keys")
    var input: InputOptions

    @OptionGroup(title: "Control socket")
    var control: ControlOptions

    @OptionGroup(title: "Web remote")
    var remote: RemoteOptions

    @OptionGroup(title: "Files written by control clients")
    var clientFiles: ClientFileOptions

    @OptionGroup(title: "Casting (UPnP/DLNA renderers)")
    var castOptions: CastOptions

    @OptionGroup(title: "Playing in sync across machines")
    var syncOptions: SyncOptions

    @OptionGroup(title: "Config file (gstplay.conf, mpv.conf syntax)")
    var config: ConfigOptions

    @Argument(help: ArgumentHelp("Files, directories (their files, sorted) or URIs to play in turn.",
                                 valueName: "uri-or-path"))
    var locations: [String] = []

    mutating func validate() throws {
        _ = try makeOptions()
    }

    /// The checked options; throws `ValidationError` (exit code 2) for bad values.
    func makeOptions() throws -> RunOptions {
        let (start, startChapter, rate, volume, mute) = (playback.start, playback.startChapter, playback.rate, playback.volume, playback.mute)
        let (loop, loopMode, shuffle, gapless, keepOpen) = (playback.loop, playback.loopMode, playback.shuffle, playback.gapless, playback.keepOpen)
        let (resume, forget) = (playback.resume, playback.forget)
        let (audioSink, videoSink, noVideo, noAudio) = (output.audioSink, output.videoSink, output.noVideo, output.noAudio)
        let (quiet, json, positionInterval, visualization) = (output.quiet, output.json, output.positionInterval, output.visualization)
        let sync = try syncOptions.settings()
        if case .follower? = sync?.role, !locations.isEmpty {
            throw ValidationError("--sync-to plays what the leader plays: give no locations")
        }
        let follows: Bool
        if case .follower? = sync?.role { follows = true } else { follows = false }
        guard !locations.isEmpty || follows || forget || castOptions.listRenderers || input.listKeys || input.keyList else { throw ValidationError("Missing expected argument '<uri-or-path> ...'") }
        if let empty = locations.first(where: { $0.trimmingWhitespace().isEmpty }) {
            throw ValidationError("Empty location '\(empty)'")
        }
        var options = RunOptions(locations: locations)
        options.sync = sync
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
        if let list = playback.watchLaterOptions {
            switch ResumeSetting.parseList(list) {
            case .success(let settings): options.watchLaterOptions = settings
            case .failure(let error): throw ValidationError("--watch-later-options: \(error.description)")
            }
        }
        options.visualization = try Self.visualization(visualization)
        options.mpris = mprisOptions.mpris
        options.ipcSocket = try control.path()
        options.remote = try remote.settings()
        options.clientWriteDirectory = try clientFiles.directory(hasClients: options.ipcSocket != nil || options.remote != nil)
        options.cast = try castOptions.settings()
        options.screenshot = try output.screenshotNaming()
        options.fullscreen = output.fullscreen ?? false
        options.osdSeekPreview = try output.seekPreview()
        options.osdDuration = try output.osdShowTime()
        options.renderLog = try output.renderLogPath()
        options.wall = try output.videoWall()
        options.autoloadFiles = playback.autoloadFiles ?? false
        options.inputConf = input.inputConf
        options.configDirectory = config.configDirectory
        options.noConfig = config.noConfig
        options.listKeys = input.listKeys
        options.keyList = input.keyList
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
    /// scripts go to stdout with 0. Synchronous: see ``CommandRouting``. **Thread:** the main thread.
    static func main() {
        MallocTuning.apply()
        Output.reopenClosedStandardDescriptors()
        GLibWarningFilter.install()
        CommandRouting.main(Array(CommandLine.arguments.dropFirst()))
    }
}
