/// Throughput: decode the 30 s clip as fast as possible (`sync=false`): wall time and CPU. Also
/// prices two Backend choices at rate 1 with GStreamer alone: the `scaletempo` audio filter
/// (keepPitch) and playbin's default flags.
enum ThroughputCase {
    static func run(_ context: BenchContext) -> CaseOutcome {
        let clip = context.smoke ? context.tenSecondClip : context.thirtySecondClip
        let workload = Workload(clip: clip, sync: false, timeoutSeconds: 120)
        let contenders = [context.gstplayCLI, context.gstLaunch, context.swiftPlaybin, context.swiftPlaybinMinimalFlags,
                          context.backendNoPitch, context.backendDefault] + context.extraGstplayContenders
        let rounds = context.options.throughputRuns
        let series = context.interleave(contenders, workload: workload, rounds: rounds, variantRounds: rounds, what: "throughput")
        let cpu: (ProcessResult) -> Double = { $0.cpuSeconds }
        let wall: (ProcessResult) -> Double = { $0.wallSeconds }
        let launch = series[id: "gst-launch"]
        let launchWall = launch?.summary(wall)?.median, launchCPU = launch?.summary(cpu)?.median
        var rows: [[String]] = []
        for run in series {
            let w = run.summary(wall), c = run.summary(cpu)
            rows.append([
                run.contender.label, Markdown.runs(run),
                Markdown.spread(w, 3), Markdown.ratio(w.flatMap { s in launchWall.map { s.median / $0 } }),
                launch.map { Markdown.paired(run.pairedRatios(to: $0, wall)) } ?? "—",
                Markdown.spread(c, 3), Markdown.ratio(c.flatMap { s in launchCPU.map { s.median / $0 } }),
                launch.map { Markdown.paired(run.pairedRatios(to: $0, cpu)) } ?? "—",
            ])
        }
        var body = """
            Decode `\(clip.split(separator: "/").last ?? "")` with `fakesink sync=false` on both sinks, start to exit; \(rounds) interleaved rounds. \
            Example: `\(series[id: "gstplay"]?.commandLine ?? "")`.

            """ + "\n"
        body += Markdown.table(["program", "runs ok", "wall s, median (min–max)", "× gst-launch-1.0", "paired",
                                "CPU s, median (min–max)", "× gst-launch-1.0", "paired"], rows)
        let threadTable = ThreadReport.section(series, key: "throughput", evidence: context.evidence)
        body += threadTable.markdown
        let ids = ["gst-launch", "swift-playbin", "backend-nopitch", "backend", "gstplay"]
        let wallChain = Decomposition(series, ids: ids, unit: "ms", digits: 1, scale: 1000, metric: wall)
        let cpuChain = Decomposition(series, ids: ids, unit: "ms CPU", digits: 1, scale: 1000, metric: cpu)
        body += "\nWall-time steps between medians: \(wallChain.inline).\n\nCPU steps: \(cpuChain.inline).\n"
        if let plain = series[id: "swift-playbin"]?.summary(cpu), let minimal = series[id: "swift-playbin-flags"]?.summary(cpu) {
            context.evidence.record("flags.cpu.default", plain.median * 1000)
            context.evidence.record("flags.cpu.minimal", minimal.median * 1000)
            context.evidence.record("flags.cpu.spread", (plain.max - plain.min) / plain.median * 100)
        }

        // scaletempo at rate 1, GStreamer alone: 200 s of F32 stereo audio through it or not.
        let buffers = context.smoke ? 1500 : 6000
        let audio = ["-q", "audiotestsrc", "num-buffers=\(buffers)", "samplesperbuffer=1600", "!", "audio/x-raw,format=F32LE,rate=48000,channels=2", "!"]
        let plain = Contender(id: "audio-plain", label: "audiotestsrc ! fakesink", role: .reference, about: "", unavailable: nil) { work in
            ProcessSpec(executable: "gst-launch-1.0", arguments: audio + ["fakesink", "sync=false"], timeoutSeconds: work.timeoutSeconds)
        }
        let tempo = Contender(id: "audio-scaletempo", label: "audiotestsrc ! scaletempo ! fakesink", role: .subject, about: "", unavailable: nil) { work in
            ProcessSpec(executable: "gst-launch-1.0", arguments: audio + ["scaletempo", "!", "fakesink", "sync=false"], timeoutSeconds: work.timeoutSeconds)
        }
        let audioSeries = context.interleave([plain, tempo], workload: workload, rounds: rounds, variantRounds: rounds, what: "scaletempo at rate 1")
        body += "\n**scaletempo at rate 1**, the Backend's `keepPitch` audio filter, measured with GStreamer alone: \(buffers) buffers (\(buffers * 1600 / 48000) s) of F32 stereo audio, \(rounds) interleaved rounds.\n\n"
        var audioRows: [[String]] = []
        for run in audioSeries {
            audioRows.append([run.contender.label, Markdown.runs(run), Markdown.spread(run.summary(cpu), 3), Markdown.spread(run.summary(wall), 3), "`\(run.commandLine)`"])
        }
        body += Markdown.table(["pipeline", "runs ok", "CPU s", "wall s", "command"], audioRows)
        if let with = audioSeries[id: "audio-scaletempo"]?.summary(cpu), let without = audioSeries[id: "audio-plain"]?.summary(cpu) {
            context.evidence.record("scaletempo.cpu.with", with.median * 1000)
            context.evidence.record("scaletempo.cpu.without", without.median * 1000)
            context.evidence.record("scaletempo.seconds", Double(buffers * 1600 / 48000))
        }

        var targets: [TargetCheck] = []
        for (name, metric, chain) in [("CPU", cpu, cpuChain), ("wall time", wall, wallChain)] {
            var check = TargetCheck(target: "throughput \(name) ≤ 1.02× gst-launch-1.0", measured: "—",
                                    status: .notMeasured("gstplay or gst-launch-1.0 did not run"), why: "")
            if let run = series[id: "gstplay"], let subject = run.summary(metric), let launch, let reference = launch.summary(metric) {
                let ratio = subject.median / reference.median
                let paired = run.pairedRatios(to: launch, metric)
                check.measured = "\(Markdown.ratio(ratio)) (\(Markdown.number(subject.median, 3)) vs \(Markdown.number(reference.median, 3)) s; paired \(Markdown.paired(paired)))"
                check.status = ratio <= 1.02 ? .met : .notMet
                check.why = "gstplay − gst-launch-1.0 = \(Markdown.signed((subject.median - reference.median) * 1000, 1)) ms; gst-launch-1.0's own runs spread over \(Markdown.number((reference.max - reference.min) * 1000, 1)) ms. \(Explain.noise(paired: paired, limit: 1.02)) Steps through the variants: \(chain.inline)."
                if name == "CPU" {
                    check.addendum = { evidence in
                        var parts: [String] = [Explain.variantThreads(evidence, key: "throughput"), Explain.startCost(evidence)]
                        if let with = evidence["scaletempo.cpu.with"], let without = evidence["scaletempo.cpu.without"], let seconds = evidence["scaletempo.seconds"] {
                            parts.append("scaletempo at rate 1 costs \(Markdown.signed(with - without, 1)) ms of CPU per \(Markdown.number(seconds, 0)) s of audio (GStreamer alone; the clip has \(context.smoke ? 10 : 30) s).")
                        }
                        if let standard = evidence["flags.cpu.default"], let minimal = evidence["flags.cpu.minimal"], let spread = evidence["flags.cpu.spread"] {
                            parts.append("playbin's default flags (the Backend keeps them, like gst-launch-1.0) vs `video+audio` only: \(Markdown.number(standard, 1)) vs \(Markdown.number(minimal, 1)) ms of CPU, against a \(Markdown.number(spread, 0)) % spread of the same program's runs.")
                        }
                        return parts.filter { !$0.isEmpty }.joined(separator: " ")
                    }
                }
            }
            targets.append(check)
        }
        return CaseOutcome(sections: [ReportSection(title: "Throughput (sync=false)", body: body)], targets: targets)
    }
}
