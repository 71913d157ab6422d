/// Real-time playback cost: CPU (user+sys) and peak RSS of playing the 10 s clip with
/// `fakesink sync=true`, against gst-launch-1.0 (CPU) and gst-play-1.0 (memory).
enum RealtimeCase {
    /// The peak-RSS target: gstplay may hold this many MiB more than gst-play-1.0.
    static let rssBudgetMiB = 6.0

    static func run(_ context: BenchContext) -> CaseOutcome {
        let clip = context.smoke ? context.shortClip : context.tenSecondClip
        let workload = Workload(clip: clip, sync: true, timeoutSeconds: 120)
        let contenders = [context.gstplayCLI, context.gstPlay, context.gstLaunch, context.mpv,
                          context.swiftPlaybin, context.backendDefault, context.backendNoStats, context.backendQuiet] + context.extraGstplayContenders
        let rounds = context.options.realtimeRuns
        let variantRounds = min(rounds, context.options.variantRuns)
        let series = context.interleave(contenders, workload: workload, rounds: rounds, variantRounds: variantRounds, what: "real-time")
        let cpu: (ProcessResult) -> Double = { $0.cpuSeconds }
        let rss: (ProcessResult) -> Double = { $0.maxRSSMiB }
        let wall: (ProcessResult) -> Double = { $0.wallSeconds }

        let launch = series[id: "gst-launch"], play = series[id: "gst-play"]
        let launchCPU = launch?.summary(cpu)?.median, playRSS = play?.summary(rss)?.median
        var rows: [[String]] = []
        for run in series {
            let cpuSummary = run.summary(cpu), rssSummary = run.summary(rss)
            rows.append([
                run.contender.label, Markdown.runs(run),
                Markdown.spread(cpuSummary, 3),
                Markdown.ratio(cpuSummary.flatMap { s in launchCPU.map { s.median / $0 } }),
                launch.map { Markdown.paired(run.pairedRatios(to: $0, cpu)) } ?? "—",
                Markdown.spread(rssSummary, 1),
                rssSummary.flatMap { s in playRSS.map { Markdown.signed(s.median - $0, 1) } } ?? "—",
                Markdown.spread(run.summary(wall), 2),
            ])
        }
        var body = """
            Play `\(clip.split(separator: "/").last ?? "")` to the end in real time; \(rounds) interleaved rounds (variants: the first \(variantRounds)). \
            CPU = user + sys of the whole process, start to exit. Example: `\(series[id: "gstplay"]?.commandLine ?? "")`.

            """ + "\n"
        body += Markdown.table(["program", "runs ok", "CPU s, median (min–max)", "× gst-launch-1.0", "paired ratio",
                                "peak RSS MiB, median (min–max)", "Δ RSS vs gst-play-1.0, MiB", "wall s"], rows)
        if series.contains(where: { $0.successes.contains { !$0.peakRSSIsOwn } }) {
            body += "\n> Some peak-RSS figures are not above the harness's own peak RSS, which `posix_spawn` passes on to the child's `ru_maxrss`: those rows read high.\n"
        }
        let threadTable = ThreadReport.section(series, key: "realtime", evidence: context.evidence)
        body += threadTable.markdown
        if !context.smoke, let d = threadTable.medians["backend"]?.loop, let n = threadTable.medians["backend-nostats"]?.loop,
           let q = threadTable.medians["backend-quiet"]?.loop {
            let seconds = 10.0
            context.evidence.record("loop.default", d)
            context.evidence.record("loop.nostats", n)
            context.evidence.record("loop.quiet", q)
            context.evidence.record("loop.seconds", seconds)
            body += "\n**The Backend loop thread's budget** (from the rows above): over the \(Markdown.number(seconds, 0)) s clip the 250 ms position tick costs \(Markdown.number(n - q, 1)) ms of loop-thread CPU "
                + "(\(Markdown.number((n - q) * 1000 / (seconds * 4), 0)) µs per tick: a position query on playbin and a `.position` event), "
                + "the 1 s statistics timer \(Markdown.number(d - n, 1)) ms (\(Markdown.number((d - n) * 1000 / seconds, 0)) µs per snapshot), "
                + "and everything else on the loop thread — building the pipeline, bus messages, teardown — \(Markdown.number(q, 1)) ms.\n"
        }
        let cpuChain = Decomposition(series, ids: ["gst-launch", "swift-playbin", "backend", "gstplay"], unit: "ms CPU", digits: 1, scale: 1000, metric: cpu)
        let rssChain = Decomposition(series, ids: ["gst-play", "gst-launch", "swift-playbin", "backend", "gstplay"], unit: "MiB", digits: 1, metric: rss)
        body += "\nCPU steps between medians: \(cpuChain.inline).\n\nPeak-RSS steps: \(rssChain.inline).\n"

        for extra in context.extraGstplayContenders {
            if let run = series[id: extra.id], let r = run.summary(rss), let c = run.summary(cpu) {
                context.evidence.record("extra.\(extra.id).rss", r.median)
                context.evidence.record("extra.\(extra.id).cpu", c.median * 1000)
            }
        }
        if let c = launch?.summary(cpu) { context.evidence.record("launch.cpu", c.median * 1000) }
        if let r = series[id: "gstplay"]?.summary(rss), let c = series[id: "gstplay"]?.summary(cpu) {
            context.evidence.record("gstplay.rss", r.median)
            context.evidence.record("gstplay.cpu", c.median * 1000)
        }
        var targets: [TargetCheck] = []
        var cpuCheck = TargetCheck(target: "real-time CPU ≤ 1.02× gst-launch-1.0", measured: "—", status: .notMeasured("gstplay or gst-launch-1.0 did not run"), why: "")
        if let subjectRun = series[id: "gstplay"], let launch, let subject = subjectRun.summary(cpu), let reference = launch.summary(cpu) {
            let ratio = subject.median / reference.median
            let paired = subjectRun.pairedRatios(to: launch, cpu)
            cpuCheck.measured = "\(Markdown.ratio(ratio)) (\(Markdown.number(subject.median, 3)) vs \(Markdown.number(reference.median, 3)) CPU s; paired \(Markdown.paired(paired)))"
            cpuCheck.status = ratio <= 1.02 ? .met : .notMet
            cpuCheck.why = "gstplay − gst-launch-1.0 = \(Markdown.signed((subject.median - reference.median) * 1000, 1)) ms of CPU over the clip (2 % would be \(Markdown.number(reference.median * 20, 1)) ms); gst-launch-1.0's own runs spread over \(Markdown.number((reference.max - reference.min) * 1000, 1)) ms. \(Explain.noise(paired: paired, limit: 1.02)) Steps through the variants: \(cpuChain.inline)."
            cpuCheck.addendum = { evidence in
                [Explain.threads(evidence, reference: "gst-launch", referenceLabel: "gst-launch-1.0"),
                 Explain.variantThreads(evidence, key: "realtime"), Explain.startCost(evidence)]
                    .filter { !$0.isEmpty }.joined(separator: " ")
            }
        }
        targets.append(cpuCheck)

        let budget = RealtimeCase.rssBudgetMiB
        var rssCheck = TargetCheck(target: "peak RSS ≤ gst-play-1.0 + \(Markdown.number(budget, 0)) MiB", measured: "—", status: .notMeasured("gstplay or gst-play-1.0 did not run"), why: "")
        if let subject = series[id: "gstplay"]?.summary(rss), let reference = play?.summary(rss) {
            let delta = subject.median - reference.median
            rssCheck.measured = "\(Markdown.signed(delta, 1)) MiB (\(Markdown.number(subject.median, 1)) vs \(Markdown.number(reference.median, 1)) MiB, real-time case)"
            rssCheck.status = delta <= budget ? .met : .notMet
            rssCheck.why = "Steps: \(rssChain.inline)."
            rssCheck.addendum = { evidence in
                guard let swift = evidence["rss.gstplay.swift"], let foundation = evidence["rss.gstplay.foundation"],
                      let gap = evidence["rss.gstplay.gap"] else { return "" }
                var text = "Page by page (*Where the memory and the CPU go*), gstplay holds \(Markdown.signed(gap, 1)) MiB more than gst-play-1.0, of which \(Markdown.number(foundation, 1)) MiB are Foundation's libraries and \(Markdown.number(swift, 1)) MiB the Swift runtime's; heap and anonymous memory differ by \(Markdown.signed(evidence["rss.gstplay.anon"] ?? 0, 1)) MiB."
                if let executable = evidence["rss.gstplay.executable"], executable >= 2 {
                    text += " The executable itself holds \(Markdown.signed(executable, 1)) MiB more: linked with the static Swift runtime (`make release`), the runtime, Foundation and swift-argument-parser live inside it instead of in shared libraries."
                }
                if let essentials = evidence["probe.rss.swift-essentials"], let full = evidence["probe.rss.swift-foundation"],
                   let bare = evidence["probe.rss.swift"], let stat = evidence["probe.rss.swift-static"], let c = evidence["probe.rss.c"] {
                    text += " The probes price the runtime alone: a do-nothing Swift program is \(Markdown.signed(bare - c, 1)) MiB over C (\(Markdown.signed(stat - c, 1)) MiB with `-static-stdlib`), \(Markdown.signed(essentials - c, 1)) MiB with FoundationEssentials, \(Markdown.signed(full - c, 1)) MiB with Foundation. Of the \(Markdown.number(budget, 0)) MiB budget, the standard library alone, linked statically, takes \(Markdown.number(stat - c, 1)) MiB; FoundationEssentials linked statically \(Markdown.number((evidence["probe.rss.swift-essentials-static"] ?? stat) - c, 1)) MiB."
                }
                return text
            }
        }
        targets.append(rssCheck)
        return CaseOutcome(sections: [ReportSection(title: "Real-time playback cost", body: body)], targets: targets)
    }
}
