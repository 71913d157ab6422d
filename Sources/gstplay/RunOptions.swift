import Backend
import BackendControl
import FoundationEssentials

/// The validated command line, as plain values. Built by ``GstplayCommand``; any thread.
struct RunOptions: Equatable, Sendable {
    var locations: [String]
    var audioSink: SinkChoice = .automatic
    var videoSink: SinkChoice = .automatic
    /// Perceptual volume in percent (0…100), nil to leave the default.
    var volumePercent: Double?
    var start: SeekArgument?
    /// `--start-chapter N`: each item starts at chapter N.
    var startChapter: Int?
    var rate: Double?
    var mute = false
    var quiet = false
    var json = false
    var keepOpen = false
    /// `--loop` (= `all`), `--loop=none|one|all`; `--shuffle`; `--gapless`/`--no-gapless`.
    var loop: LoopMode = .none
    var shuffle = false
    var gapless = true
    /// `--resume` / `--forget`.
    var resume = false
    var forget = false
    /// `--watch-later-options`: what `--resume` saves and restores (all by default).
    var watchLaterOptions = Set(ResumeSetting.allCases)
    var positionIntervalMilliseconds: UInt32 = 250
    /// Adaptive streaming: start variant and caps (`--start-variant`, `--max-bitrate`, `--max-height`).
    var adaptivePolicy = AdaptivePolicy()
    /// Tracks, subtitle file and offsets.
    var tracks = TrackSettings()
    /// How drawn subtitles look (`--sub-visibility`, `--sub-scale`, `--sub-position`).
    var subtitleStyle = SubtitleStyle()
    /// `--visualization`: what audio-only media shows in a window; never with `--json`.
    var visualization: AudioVisualization = .auto
    /// `--network-timeout` and the media cache (`--cache`, `--cache-dir`, `--cache-size`).
    var network = NetworkSettings()
    /// `--mpris` / `--no-mpris`; nil: the default (``MPRISSetup``).
    var mpris: Bool?
    /// `--input-ipc-server` / `--ipc-socket`: the control socket's path.
    var ipcSocket: String?
    /// `--sync-serve[=ADDR:PORT]` / `--sync-to`, `--sync-clock`, `--sync-latency`: the sync role, nil for none.
    var sync: SyncSettings?
    /// `--remote[=PORT]`, `--remote-bind`, `--remote-token-file`: the web remote.
    var remote: RemoteSettings?
    /// `--client-write-dir`: where control clients may write files, absolute (nil: nowhere).
    var clientWriteDirectory: String?
    /// `--list-renderers`, `--cast`, `--cast-interface`, `--discover-time`.
    var cast = CastRunSettings()
    /// `--screenshot-template`, `--screenshot-directory`.
    var screenshot = ScreenshotNaming()
    /// `--fullscreen` / `--fs`: the video window starts fullscreen.
    var fullscreen = false
    /// `--osd-seek-preview`: the window's OSD shows a picture of the seek target.
    var osdSeekPreview = true
    /// `--osd-duration`: how long the OSD stays (nil: the library's default).
    var osdDuration: Duration?
    /// `--render-log FILE`: a line per rendered buffer (``RenderLog``), for the sync bench.
    var renderLog: String?
    /// `--wall COLSxROWS:COL,ROW[:BEZEL]`: show one tile of a video wall.
    var wall: VideoWall?
    /// `--autoload-files`: one local file brings the other media files of its folder.
    var autoloadFiles = false
    /// `--input-conf FILE` (nil: the config directory's input.conf) and `--list-keys`.
    var inputConf: String?
    /// `--config-dir` and `--no-config` (the config file itself is read before parsing, by
    /// ``ConfigArguments``): where the user's input.conf is looked for (``inputConfDirectory``).
    var configDirectory: String?
    var noConfig = false

    /// Where the user's input.conf is looked for without `--input-conf`: `--config-dir`, else
    /// `$XDG_CONFIG_HOME/gstplay`; nil with `--no-config` (as mpv: no user file at all).
    var inputConfDirectory: String? {
        noConfig ? nil : configDirectory ?? ConfigFile.defaultDirectory(ConfigFile.directoryEnvironment)
    }
    var listKeys = false
    /// `--input-keylist`: print ``KeyName/list`` and exit.
    var keyList = false

    /// The Backend configuration these options ask for. `showsStatistics`: something shows the
    /// periodic statistics (the TTY status line, `--json` statistics events), so the Backend
    /// collects them once a second; otherwise it does not (`stats` still refreshes on demand).
    /// Sinks are passed through as given: headless safety is the Backend's.
    func playerConfiguration(showsStatistics: Bool) -> PlayerConfiguration {
        var configuration = PlayerConfiguration()
        configuration.positionInterval = .milliseconds(positionIntervalMilliseconds)
        configuration.statisticsInterval = showsStatistics ? .seconds(1) : .zero
        configuration.videoSink = videoSink
        configuration.audioSink = audioSink
        network.apply(to: &configuration)
        // In a sync group a rate change must bring a new segment (a flushing seek): the session's
        // line is made from the segment, which an instant rate change leaves as it was.
        if sync != nil { configuration.instantRateChange = false }
        return configuration
    }

    /// The features' options these options ask for (the media cache, the ABR policy).
    func standardFeatures() -> StandardFeatures {
        var standard = StandardFeatures()
        network.apply(to: &standard)
        standard.adaptivePolicy = adaptivePolicy
        standard.subtitleStyle = subtitleStyle
        standard.subtitleAutoLoad = tracks.subtitleAutoLoad
        standard.visualization = json ? .none : visualization
        standard.cast = cast.castSettings
        standard.osd.seekPreview = osdSeekPreview
        if let osdDuration { standard.osd.duration = osdDuration }
        standard.wall = wall
        standard.pluginPrefetch = PluginPrefetchStore(path: PluginPrefetchStore.defaultPath)
        return standard
    }
}

extension RunOptions {
    /// What `--resume` restores: ``watchLaterOptions`` less what the command line sets itself
    /// (`--start`, `--volume`, `--mute`, `--rate`, the track options win over the stored choices).
    var resumeRestores: Set<ResumeSetting> {
        var given: Set<ResumeSetting> = []
        if start != nil || startChapter != nil { given.insert(.start) }
        if volumePercent != nil { given.insert(.volume) }
        if mute { given.insert(.mute) }
        if rate != nil { given.insert(.speed) }
        if tracks.audioTrack != nil { given.insert(.audioTrack) }
        if tracks.subtitleTrack != nil { given.insert(.subtitleTrack) }
        if !tracks.subtitleFiles.isEmpty { given.insert(.subtitleFiles) }
        if tracks.subtitleOffset != 0 { given.insert(.subtitleDelay) }
        return watchLaterOptions.subtracting(given)
    }
}
