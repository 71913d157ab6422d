import Foundation

/// What a contender is asked to do in one run.
struct Workload: Sendable {
    /// Absolute path of the clip.
    var clip: String
    /// `sync=true` (real time) or `sync=false` (as fast as possible) on every sink.
    var sync: Bool
    var timeoutSeconds: Double
}

/// A program measured side by side with the others.
struct Contender: Sendable {
    enum Role: Sendable {
        /// What we measure: the gstplay CLI.
        case subject
        /// What the targets compare with (gst-launch-1.0, gst-play-1.0).
        case reference
        /// Another player, for context (mpv).
        case peer
        /// A variant of ours that isolates one cost (the Swift floor, the Backend alone, a Backend setting).
        case variant
    }

    let id: String
    let label: String
    let role: Role
    /// One line: what the contender is and why it is here.
    let about: String
    /// Why it cannot run here (missing binary), or nil.
    let unavailable: String?
    let command: @Sendable (Workload) -> ProcessSpec

    /// The command line shown in the report for `workload`.
    func commandLine(_ workload: Workload) -> String { command(workload).commandLine }
}

/// Everything a case needs: options, the runner, the binaries and the clips.
struct BenchContext: Sendable {
    let options: BenchOptions
    let runner: ProcessRunner
    /// This executable (`/proc/self/exe`), for `child` runs.
    let benchExecutable: String
    let gstplay: String
    let shortClip: String
    let tenSecondClip: String
    let thirtySecondClip: String
    /// `mpv` on PATH, or nil.
    let mpvPath: String?
    /// Extra gstplay builds to measure as variants (label, path), from `--also`.
    let extraGstplays: [(label: String, path: String)]
    /// Figures shared between cases for the explanations.
    let evidence = Evidence()

    var smoke: Bool { options.smoke }

    /// Progress for the person running `make bench` (stderr; the report goes to a file).
    func log(_ text: String) {
        FileHandle.standardError.write(Data("[bench] \(text)\n".utf8))
    }

    // MARK: Contenders

    var gstplayCLI: Contender { gstplayContender(id: "gstplay", label: "gstplay", path: gstplay, role: .subject,
                                                 about: "the CLI under test (`--quiet`, fake sinks given with `--video-sink`/`--audio-sink`)") }

    /// The CLI as on the first play of a kind of media: no record of the plugins to load ahead
    /// (`PluginPrefetchFeature`). Its cache directory holds a directory where the record file would
    /// be, so nothing is read or written; the plugin registry stays the harness's (`GST_REGISTRY`).
    var gstplayFirstOfKind: Contender {
        let cache = runner.workDirectory + "/first-of-kind-cache"
        let registry = Self.pluginRegistryPath
        let plain = gstplayContender(id: "gstplay-first-of-kind", label: "gstplay, first play of a kind", path: gstplay, role: .variant,
                                     about: "the CLI with no record of the plugins its kind of media needed (a cache directory of its own whose record cannot be read or written; `GST_REGISTRY` the harness's)")
        return Contender(id: plain.id, label: plain.label, role: plain.role, about: plain.about, unavailable: plain.unavailable) { work in
            try? FileManager.default.createDirectory(atPath: cache + "/gstplay/plugin-prefetch.json", withIntermediateDirectories: true)
            var spec = plain.command(work)
            spec.extraEnvironment = ["XDG_CACHE_HOME": cache, "GST_REGISTRY": registry]
            return spec
        }
    }

    /// The plugin registry GStreamer uses in this environment: `GST_REGISTRY`, else
    /// `<user cache dir>/gstreamer-1.0/registry.<machine>.bin`.
    static var pluginRegistryPath: String {
        let environment = ProcessInfo.processInfo.environment
        if let explicit = environment["GST_REGISTRY"], !explicit.isEmpty { return explicit }
        var names = utsname()
        uname(&names)
        let machine = withUnsafeBytes(of: &names.machine) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        let cache = environment["XDG_CACHE_HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil } ?? NSHomeDirectory() + "/.cache"
        return cache + "/gstreamer-1.0/registry.\(machine).bin"
    }

    func gstplayContender(id: String, label: String, path: String, role: Contender.Role, about: String) -> Contender {
        let missing = FileManager.default.isExecutableFile(atPath: path) ? nil : "no executable at \(path) (build the `gstplay` product)"
        return Contender(id: id, label: label, role: role, about: about, unavailable: missing) { work in
            ProcessSpec(executable: path, arguments: ["--quiet", "--video-sink", "fakesink sync=\(work.sync)",
                                                      "--audio-sink", "fakesink sync=\(work.sync)", work.clip],
                        timeoutSeconds: work.timeoutSeconds)
        }
    }

    var gstPlay: Contender {
        Contender(id: "gst-play", label: "gst-play-1.0", role: .reference,
                  about: "GStreamer's own player (`playbin`), the reference for startup and memory",
                  unavailable: Self.onPath("gst-play-1.0") == nil ? "gst-play-1.0 not found (Debian: gstreamer1.0-plugins-base-apps)" : nil) { work in
            ProcessSpec(executable: "gst-play-1.0", arguments: ["-q", "--videosink=fakesink sync=\(work.sync)",
                                                                "--audiosink=fakesink sync=\(work.sync)", work.clip],
                        timeoutSeconds: work.timeoutSeconds)
        }
    }

    var gstLaunch: Contender {
        Contender(id: "gst-launch", label: "gst-launch-1.0 playbin", role: .reference,
                  about: "a bare `playbin` from GStreamer's launcher, the reference for CPU",
                  unavailable: Self.onPath("gst-launch-1.0") == nil ? "gst-launch-1.0 not found (Debian: gstreamer1.0-tools)" : nil) { work in
            ProcessSpec(executable: "gst-launch-1.0", arguments: ["-q", "playbin", "uri=\(URL(fileURLWithPath: work.clip).absoluteString)",
                                                                  "video-sink=fakesink sync=\(work.sync)", "audio-sink=fakesink sync=\(work.sync)"],
                        timeoutSeconds: work.timeoutSeconds)
        }
    }

    var mpv: Contender {
        Contender(id: "mpv", label: "mpv", role: .peer, about: "mpv (FFmpeg, not GStreamer) with null outputs, for context",
                  unavailable: mpvPath == nil ? "mpv not installed (`make setup-bench` installs it from Debian)" : nil) { work in
            ProcessSpec(executable: "mpv", arguments: ["--no-config", "--vo=null", "--ao=null", "--really-quiet"]
                            + (work.sync ? [] : ["--untimed", "--ao-null-untimed=yes"]) + [work.clip],
                        timeoutSeconds: work.timeoutSeconds)
        }
    }

    /// A `gstplay-bench child …` run.
    func child(id: String, label: String, about: String, _ arguments: [String]) -> Contender {
        let executable = benchExecutable
        return Contender(id: id, label: label, role: .variant, about: about, unavailable: nil) { work in
            ProcessSpec(executable: executable, arguments: ["child"] + arguments + ["--sync", "\(work.sync)", work.clip],
                        timeoutSeconds: work.timeoutSeconds)
        }
    }

    var swiftPlaybin: Contender {
        child(id: "swift-playbin", label: "Swift floor: bare playbin", about: "`gstplay-bench child playbin`: the gst-launch work (PLAYING, wait for EOS) in a Swift process linking what gstplay links (Swift runtime, Foundation, Backend)", ["playbin"])
    }

    var swiftPlaybinMinimalFlags: Contender {
        child(id: "swift-playbin-flags", label: "Swift floor, flags=video+audio", about: "`child playbin --flags video+audio`: playbin without its default soft-volume, text, deinterlace and soft-colorbalance flags", ["playbin", "--flags", "video+audio"])
    }

    var backendDefault: Contender {
        child(id: "backend", label: "Backend Player (defaults)", about: "`gstplay-bench child player`: one Backend `Player` with default settings, no CLI", ["player"])
    }

    var backendNoPitch: Contender {
        child(id: "backend-nopitch", label: "Backend, keepPitch off", about: "`child player --keep-pitch false`: without the `scaletempo` audio-filter", ["player", "--keep-pitch", "false"])
    }

    var backendNoStats: Contender {
        child(id: "backend-nostats", label: "Backend, statistics timer off", about: "`child player --stats 0`: without the 1 s statistics timer", ["player", "--stats", "0"])
    }

    var backendQuiet: Contender {
        child(id: "backend-quiet", label: "Backend, no statistics, tick hourly", about: "`child player --stats 0 --tick 3600000`: without the statistics timer and (in effect) the position tick", ["player", "--stats", "0", "--tick", "3600000"])
    }

    /// gstplay builds given with `--also` (e.g. a debug or static-stdlib build).
    var extraGstplayContenders: [Contender] {
        extraGstplays.enumerated().map { index, extra in
            gstplayContender(id: "also-\(index)", label: "gstplay (\(extra.label))", path: extra.path, role: .variant,
                             about: "the same CLI, \(extra.label) (`\(extra.path)`)")
        }
    }

    /// No media: process start, dynamic loading and exit only.
    var processStartRows: [Contender] {
        let executable = benchExecutable, cli = gstplay
        return [
            Contender(id: "start-gstplay", label: "gstplay --version", role: .subject, about: "Swift runtime, Foundation, ArgumentParser, GStreamer libraries loaded; no gst_init",
                      unavailable: FileManager.default.isExecutableFile(atPath: cli) ? nil : "no gstplay binary") { work in
                ProcessSpec(executable: cli, arguments: ["--version"], timeoutSeconds: work.timeoutSeconds)
            },
            Contender(id: "start-gst-play", label: "gst-play-1.0 --version", role: .reference, about: "GStreamer libraries loaded, gst_init",
                      unavailable: Self.onPath("gst-play-1.0") == nil ? "gst-play-1.0 not found" : nil) { work in
                ProcessSpec(executable: "gst-play-1.0", arguments: ["--version"], timeoutSeconds: work.timeoutSeconds)
            },
            Contender(id: "start-noop", label: "gstplay-bench child noop", role: .variant, about: "a Swift executable linking Backend (Swift runtime, Foundation, GStreamer libraries) that exits at once",
                      unavailable: nil) { work in
                ProcessSpec(executable: executable, arguments: ["child", "noop"], timeoutSeconds: work.timeoutSeconds)
            },
            Contender(id: "start-init", label: "gstplay-bench child init", role: .variant, about: "the same Swift executable calling `gst_init` and exiting: compare with gst-play-1.0 --version",
                      unavailable: nil) { work in
                ProcessSpec(executable: executable, arguments: ["child", "init"], timeoutSeconds: work.timeoutSeconds)
            },
        ]
    }

    /// The absolute path of `name` on PATH, or nil.
    static func onPath(_ name: String) -> String? {
        for directory in (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":") {
            let path = "\(directory)/\(name)"
            if FileManager.default.isExecutableFile(atPath: path) { return path }
        }
        return nil
    }
}
