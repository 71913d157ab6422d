import ArgumentParser
import Backend

/// Where and how the items play: start position, rate, volume, the queue's modes, resume
/// (`--help` shows them first, under PLAYBACK). Parsed by ArgumentParser; checked by
/// ``GstplayCommand/makeOptions()``. A plain value; any thread.
struct PlaybackOptions: ParsableArguments {
    // `.unconditional`: the next argument is the value even when it starts with `-` (`--start -10`
    // reaches the validation instead of failing as a missing value).
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

    @Option(help: ArgumentHelp("Volume in percent, 0-100, on a perceptual (cubic) scale like gst-play.", valueName: "0-100"))
    var volume: Double?

    @Flag(help: "Start muted.")
    var mute = false

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

    @Flag(name: .customLong("keep-open"), help: "At the end of an item stay paused instead of advancing or quitting.")
    var keepOpen = false

    @Flag(name: .customLong("autoload-files"), inversion: .prefixedNo,
          help: "Also queue the rest of the file's folder (autoload).")
    var autoloadFiles: Bool?

    @Flag(help: "Start each item where, and as (volume, tracks…), it was left last time; store that at exit.")
    var resume = false

    @Option(name: .customLong("watch-later-options"), help: ArgumentHelp(
        "What --resume keeps, e.g. start,volume (default all).",
        valueName: "list"))
    var watchLaterOptions: String?

    @Flag(help: "Forget every stored resume position first.")
    var forget = false
}

/// What gstplay shows and where: sinks, fullscreen, screenshot names, quiet or JSON output, position reports, the picture for
/// audio-only media (`--help` shows them under OUTPUT). Parsed by ArgumentParser; checked by
/// ``GstplayCommand/makeOptions()``. A plain value; any thread.
struct OutputOptions: ParsableArguments {
    @Option(name: .customLong("audio-sink"), help: ArgumentHelp(
        "Audio sink: an element or a bin, e.g. 'fakesink sync=true'.",
        valueName: "element"))
    var audioSink: String?

    @Option(name: .customLong("video-sink"), help: ArgumentHelp(
        "Video sink: an element or a bin, e.g. 'fakevideosink'.",
        valueName: "element"))
    var videoSink: String?

    @Flag(name: .customLong("no-video"), help: "Disable video (no video sink, no decoding).")
    var noVideo = false

    @Flag(name: .customLong("no-audio"), help: "Disable audio (no audio sink, no decoding).")
    var noAudio = false

    @Flag(name: [.customLong("fullscreen"), .customLong("fs")], inversion: .prefixedNo,
          help: "Start the video window fullscreen ('f' toggles it).")
    var fullscreen: Bool?

    // Hidden from --help, which is kept short (NewcomerCLITests); --help-hidden and docs/CLI.md list it.
    @Option(name: .customLong("osd-seek-preview"), help: ArgumentHelp(
        "A picture of the target time above a bar while seeking in the window (yes, the default) or not.", valueName: "yes|no",
        visibility: .hidden))
    var osdSeekPreview: String?

    // mpv's --osd-duration; hidden like the option above, in --help-hidden and docs/CLI.md.
    @Option(name: .customLong("osd-duration"), help: ArgumentHelp(
        "How long the OSD stays after its last change, in milliseconds (default 1500).", valueName: "ms", visibility: .hidden))
    var osdDuration: UInt32?

    // Diagnostics for the sync bench; hidden, in --help-hidden and docs/CLI.md.
    @Option(name: .customLong("render-log"), help: ArgumentHelp(
        "Write one line per rendered buffer to FILE: kind, pts, running time, CLOCK_REALTIME (ns).", valueName: "file",
        visibility: .hidden))
    var renderLog: String?

    @Option(name: .customLong("wall"), help: ArgumentHelp(
        "Show one tile of a video wall: COLSxROWS:COL,ROW[:BEZEL], e.g. 2x1:0,0 (BEZEL: pixels, or a fraction of the tile).",
        valueName: "spec", visibility: .hidden))
    var wall: String?

    @Option(name: .customLong("screenshot-template"), help: ArgumentHelp(
        "Screenshot name (%f file, %F stem, %n 0001, %P time).",
        valueName: "name"))
    var screenshotTemplate: String?

    @Option(name: .customLong("screenshot-directory"), help: ArgumentHelp(
        "Screenshots go here (made when missing).", valueName: "dir"))
    var screenshotDirectory: String?

    @Flag(name: [.customShort("q"), .long], help: "No status line and no notes; errors are still printed.")
    var quiet = false

    @Flag(help: "Machine mode: JSON Lines events and replies on stdout, commands on stdin (see docs/PROTOCOL.md).")
    var json = false

    @Option(name: .customLong("position-interval"), help: ArgumentHelp(
        "Position reports (status line, JSON position events) every N milliseconds while playing.", valueName: "ms"))
    var positionInterval: UInt32 = 250

    @Option(help: ArgumentHelp("Audio-only media in a window: auto (cover art, else a visualiser), none, or goom, wavescope…",
                               valueName: "name|none|auto"))
    var visualization: String?
}

extension OutputOptions {
    /// `--osd-duration`: nil when not given; `ValidationError` (exit 2) for 0 or more than a minute.
    func osdShowTime() throws -> Duration? {
        guard let osdDuration else { return nil }
        guard (1...60_000).contains(osdDuration) else { throw ValidationError("--osd-duration must be 1 to 60000 milliseconds (got \(osdDuration))") }
        return .milliseconds(osdDuration)
    }

    /// `--osd-seek-preview`: true unless `no`; `ValidationError` (exit 2) for another value.
    func seekPreview() throws -> Bool {
        switch osdSeekPreview?.trimmingWhitespace().lowercased() {
        case nil, "yes", "on": return true
        case "no", "off": return false
        default: throw ValidationError("--osd-seek-preview must be yes or no (got '\(osdSeekPreview ?? "")')")
        }
    }
}

extension OutputOptions {
    /// `--render-log`: the path, nil when absent; `ValidationError` (exit 2) when empty.
    func renderLogPath() throws -> String? {
        guard let renderLog else { return nil }
        guard !renderLog.isEmpty else { throw ValidationError("--render-log needs a file name") }
        return renderLog
    }

    /// `--wall`: the tile, nil when absent; `ValidationError` (exit 2) with the parser's reason.
    func videoWall() throws -> VideoWall? {
        guard let wall else { return nil }
        switch VideoWall.parse(wall) {
        case .success(let tile): return tile
        case .failure(let error): throw ValidationError("--wall: \(error.message)")
        }
    }
}
