import ArgumentParser
import Backend
import BackendControl

/// The track settings from the command line, as plain values. Any thread.
struct TrackSettings: Equatable, Sendable {
    /// `--audio-track N`: selected when each item's tracks are known.
    var audioTrack: Int?
    /// `--sub-track N|none`: `.some(nil)` switches subtitles off.
    var subtitleTrack: Int??
    /// `--sub-file PATH`: the external subtitle file for the first item (the last one given wins:
    /// playbin takes one `suburi`).
    var subtitleFiles: [String] = []
    /// `--sub-offset MS`, `--audio-offset MS`.
    var subtitleOffset: Int64 = 0
    var audioOffset: Int64 = 0
    /// `--list-tracks`: print the track table of each item and exit.
    var listTracks = false
    /// `--sub-auto=no|exact|fuzzy`: the subtitle file next to a local item that loads with it.
    var subtitleAutoLoad: SubtitleAutoLoad = .exact

    /// What the library's ``PlayerControl`` applies: the selections, the subtitle file, the offsets.
    var choices: TrackChoices {
        TrackChoices(audioTrack: audioTrack, subtitleTrack: subtitleTrack, subtitleFiles: subtitleFiles,
                     subtitleOffset: subtitleOffset, audioOffset: audioOffset)
    }
}

/// `--audio-track`, `--sub-track`, `--sub-file`, `--sub-offset`, `--audio-offset`, `--sub-auto`, `--list-tracks`.
/// Parsed by ArgumentParser; any thread.
struct TrackOptions: ParsableArguments {
    @Option(name: .customLong("audio-track"), help: ArgumentHelp("Audio track to play (see --list-tracks).", valueName: "N"))
    var audioTrack: Int?

    @Option(name: .customLong("sub-track"), help: ArgumentHelp("Subtitle track to show, or 'none'.", valueName: "N|none"))
    var subtitleTrack: String?

    @Option(name: .customLong("sub-file"), help: ArgumentHelp(
        "External subtitle file (.srt, .vtt, .ass) for the first item, selected.", valueName: "path"))
    var subtitleFiles: [String] = []

    // `.unconditional`: `--sub-offset -500` works like `--sub-offset=-500`.
    @Option(name: .customLong("sub-offset"), parsing: .unconditional,
            help: ArgumentHelp("Show subtitles this many milliseconds later (negative: earlier), like mpv's --sub-delay.", valueName: "ms"))
    var subtitleOffset: Int64?

    @Option(name: .customLong("audio-offset"), parsing: .unconditional,
            help: ArgumentHelp("Audio/video offset in milliseconds (playbin av-offset), like mpv's --audio-delay.", valueName: "ms"))
    var audioOffset: Int64?

    @Option(name: .customLong("sub-auto"), help: ArgumentHelp(
        "Subtitles beside the item: exact (movie.en.srt for movie.mkv; default), fuzzy, no.",
        valueName: "no|exact|fuzzy"))
    var subtitleAuto: String?

    @Flag(name: .customLong("list-tracks"), help: "Print the streams of each item (codec, language, title, details) and exit.")
    var listTracks = false

    /// The checked settings; `ValidationError` (exit 2) for bad values.
    func settings() throws -> TrackSettings {
        var settings = TrackSettings(subtitleFiles: subtitleFiles, listTracks: listTracks)
        if let audioTrack {
            guard audioTrack >= 0 else { throw ValidationError("--audio-track must be 0 or more (got \(audioTrack))") }
            settings.audioTrack = audioTrack
        }
        if let subtitleTrack {
            if subtitleTrack.lowercased() == "none" {
                settings.subtitleTrack = .some(nil)
            } else if let index = Int(subtitleTrack), index >= 0 {
                settings.subtitleTrack = index
            } else {
                throw ValidationError("--sub-track must be a track number or 'none' (got '\(subtitleTrack)')")
            }
        }
        for (value, option) in [(subtitleOffset, "--sub-offset"), (audioOffset, "--audio-offset")] {
            if let value, !(-TrackCommands.offsetLimit...TrackCommands.offsetLimit).contains(value) { throw ValidationError("\(option) must be within ±3600000 ms (got \(value))") }
        }
        settings.subtitleOffset = subtitleOffset ?? 0
        settings.audioOffset = audioOffset ?? 0
        if let subtitleAuto {
            guard let mode = SubtitleAutoLoad(rawValue: subtitleAuto.trimmingWhitespace().lowercased()) else {
                throw ValidationError("--sub-auto must be no, exact or fuzzy (got '\(subtitleAuto)')")
            }
            settings.subtitleAutoLoad = mode
        }
        if subtitleFiles.contains(where: { $0.trimmingWhitespace().isEmpty }) {
            throw ValidationError("--sub-file needs a path")
        }
        return settings
    }
}
