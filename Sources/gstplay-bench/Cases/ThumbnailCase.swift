import Foundation

/// One 256-px thumbnail of the 10 s H.264 clip, whole process (spawn to exit), beside
/// `ffmpegthumbnailer` (FFmpeg, the file managers' usual thumbnailer) and the GStreamer floor: a
/// `gst-launch-1.0` pipeline that decodes the first frame, scales it and writes one PNG
/// (`pngenc snapshot=true`). Variants isolate costs: the registry scan (`GST_REGISTRY_UPDATE=no`)
/// and autoplugging (`uridecodebin` instead of a hand-made `qtdemux ! h264parse ! avdec_h264`).
enum ThumbnailCase {
    /// Where the PNGs go (one file per contender, overwritten every run).
    static let scratch = NSTemporaryDirectory() + "gstplay-bench-thumbnail-\(getpid())"
    static let size = 256

    static func contenders(_ context: BenchContext) -> [Contender] {
        let gstplay = context.gstplay, out = scratch
        let hasGstplay = FileManager.default.isExecutableFile(atPath: gstplay) ? nil : "no executable at \(gstplay)"
        let hasLaunch = BenchContext.onPath("gst-launch-1.0") == nil ? "gst-launch-1.0 not found (Debian: gstreamer1.0-tools)" : nil
        // A registry of the case's own: the shared one in ~/.cache is rewritten whenever another
        // session runs GStreamer with other environment variables (LADSPA_PATH, LV2_PATH, HOME…),
        // and the next run then reloads lv2, ladspa, frei0r and libvisual to rescan them.
        let registry = ["GST_REGISTRY": "\(out)/registry.bin"]
        let noUpdate = registry.merging(["GST_REGISTRY_UPDATE": "no"]) { $1 }
        let floor = { @Sendable (work: Workload, file: String) in floorArguments(clip: work.clip, file: "\(out)/\(file).png") }
        let lightFloor = { @Sendable (work: Workload) in
            floorArguments(clip: work.clip, file: "\(out)/floor-openh264.png").map { $0 == "avdec_h264" ? "openh264dec" : $0 }
        }
        return [
            Contender(id: "thumb-gstplay", label: "gstplay thumbnail", role: .subject,
                      about: "`gstplay thumbnail -s 256 CLIP OUT.png`: the thumbnailer's command (key-unit seek to 1/3, `videoanalyse`, PNG)",
                      unavailable: hasGstplay) { work in
                ProcessSpec(executable: gstplay, arguments: ["thumbnail", "-s", "\(size)", work.clip, "\(out)/gstplay.png"],
                            timeoutSeconds: work.timeoutSeconds, extraEnvironment: registry)
            },
            Contender(id: "thumb-floor", label: "gst-launch-1.0 first frame", role: .reference,
                      about: "`gst-launch-1.0 filesrc ! qtdemux ! h264parse ! avdec_h264 ! videoscale ! video/x-raw,width=256 ! videoconvert ! pngenc snapshot=true ! filesink`: the GStreamer floor (no seek, no autoplugging)",
                      unavailable: hasLaunch) { work in
                ProcessSpec(executable: "gst-launch-1.0", arguments: floor(work, "floor"), timeoutSeconds: work.timeoutSeconds,
                            extraEnvironment: registry)
            },
            Contender(id: "thumb-ffmpeg", label: "ffmpegthumbnailer", role: .peer,
                      about: "`ffmpegthumbnailer -i CLIP -o OUT.png -s 256` (FFmpeg; seeks to 10 %)",
                      unavailable: BenchContext.onPath("ffmpegthumbnailer") == nil ? "ffmpegthumbnailer not installed (`make setup-bench`)" : nil) { work in
                ProcessSpec(executable: "ffmpegthumbnailer", arguments: ["-i", work.clip, "-o", "\(out)/ffmpeg.png", "-s", "\(size)"],
                            timeoutSeconds: work.timeoutSeconds)
            },
            Contender(id: "thumb-gstplay-noupdate", label: "gstplay thumbnail, GST_REGISTRY_UPDATE=no", role: .variant,
                      about: "the same without the registry's plugin-directory scan at `gst_init`", unavailable: hasGstplay) { work in
                ProcessSpec(executable: gstplay, arguments: ["thumbnail", "-s", "\(size)", work.clip, "\(out)/gstplay-noupdate.png"],
                            timeoutSeconds: work.timeoutSeconds, extraEnvironment: noUpdate)
            },
            Contender(id: "thumb-floor-noupdate", label: "gst-launch-1.0 first frame, GST_REGISTRY_UPDATE=no", role: .variant,
                      about: "the floor without the registry scan", unavailable: hasLaunch) { work in
                ProcessSpec(executable: "gst-launch-1.0", arguments: floor(work, "floor-noupdate"), timeoutSeconds: work.timeoutSeconds,
                            extraEnvironment: noUpdate)
            },
            Contender(id: "thumb-uridecodebin", label: "gst-launch-1.0 uridecodebin first frame", role: .variant,
                      about: "`uridecodebin caps=video/x-raw ! videoscale ! … ! pngenc snapshot=true`: the floor with autoplugging, as playbin does it",
                      unavailable: hasLaunch) { work in
                ProcessSpec(executable: "gst-launch-1.0",
                            arguments: ["-q", "uridecodebin", "uri=\(URL(fileURLWithPath: work.clip).absoluteString)", "caps=video/x-raw", "!",
                                        "videoscale", "!", "video/x-raw,width=\(size),pixel-aspect-ratio=1/1", "!", "videoconvert", "!",
                                        "pngenc", "snapshot=true", "!", "filesink", "location=\(out)/uridecodebin.png"],
                            timeoutSeconds: work.timeoutSeconds, extraEnvironment: registry)
            },
            Contender(id: "thumb-floor-openh264", label: "gst-launch-1.0 first frame, openh264dec", role: .variant,
                      about: "the floor with the decoder `gstplay thumbnail` picks for this clip (`openh264dec`: gst-libav is not loaded)",
                      unavailable: hasLaunch) { work in
                ProcessSpec(executable: "gst-launch-1.0", arguments: lightFloor(work), timeoutSeconds: work.timeoutSeconds,
                            extraEnvironment: registry)
            },
            Contender(id: "thumb-start", label: "gstplay --version", role: .variant,
                      about: "process start alone (Swift runtime, libraries; no `gst_init`)", unavailable: hasGstplay) { work in
                ProcessSpec(executable: gstplay, arguments: ["--version"], timeoutSeconds: work.timeoutSeconds)
            },
        ]
    }

    /// The floor's `gst-launch-1.0` arguments: decode the first frame, scale, one PNG.
    static func floorArguments(clip: String, file: String) -> [String] {
        ["-q", "filesrc", "location=\(clip)", "!", "qtdemux", "!", "h264parse", "!", "avdec_h264", "!", "videoscale", "!",
         "video/x-raw,width=\(size),pixel-aspect-ratio=1/1", "!", "videoconvert", "!", "pngenc", "snapshot=true", "!",
         "filesink", "location=\(file)"]
    }

    static func run(_ context: BenchContext) -> CaseOutcome {
        try? FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        let all = contenders(context)
        let rounds = context.options.startupRuns
        let workload = Workload(clip: context.tenSecondClip, sync: false, timeoutSeconds: 30)
        let series = context.interleave(all, workload: workload, rounds: rounds, variantRounds: rounds, what: "thumbnail")
        let wall: (ProcessResult) -> Double = { $0.wallSeconds }
        let reference = series[id: "thumb-floor"]
        let referenceMedian = reference?.summary(wall)?.median
        let rows: [[String]] = series.map { run in
            let summary = run.summary(wall)
            return [run.contender.label, Markdown.runs(run), Markdown.spread(summary, 1, scale: 1000),
                    Markdown.ratio(summary.flatMap { s in referenceMedian.map { s.median / $0 } }),
                    reference.map { Markdown.paired(run.pairedRatios(to: $0, wall)) } ?? "—",
                    Markdown.spread(run.summary { $0.cpuSeconds }, 1, scale: 1000)]
        }
        var body = """
            One \(size)-px PNG of `\(context.tenSecondClip.split(separator: "/").last ?? "")` (640×360 H.264, 10 s), from process start to exit; \
            \(rounds) interleaved rounds. Example: `\(series[id: "thumb-gstplay"]?.commandLine ?? "")`.

            """ + "\n"
        body += Markdown.table(["program", "runs ok", "wall ms, median (min–max)", "× gst-launch first frame", "paired ratio", "CPU ms, median (min–max)"], rows)
        var check = TargetCheck(target: "thumbnail ≤ 1.0× the gst-launch-1.0 first-frame floor", measured: "—",
                                status: .notMeasured("gstplay or gst-launch-1.0 did not run"), why: "")
        if let subjectRun = series[id: "thumb-gstplay"], let subject = subjectRun.summary(wall), let reference, let floor = reference.summary(wall) {
            let ratio = subject.median / floor.median
            check.measured = "\(Markdown.ratio(ratio)) (\(Markdown.number(subject.median * 1000, 1)) vs \(Markdown.number(floor.median * 1000, 1)) ms; paired \(Markdown.paired(subjectRun.pairedRatios(to: reference, wall))))"
            check.status = ratio <= 1.0 ? .met : .notMet
            if let ffmpeg = series[id: "thumb-ffmpeg"]?.summary(wall) {
                check.why = "ffmpegthumbnailer: \(Markdown.number(ffmpeg.median * 1000, 1)) ms. What stands between them is analysed by hand in docs/BENCHMARKS.md (Thumbnails)."
            }
        }
        return CaseOutcome(sections: [ReportSection(title: "One thumbnail", body: body)], targets: [check])
    }
}
