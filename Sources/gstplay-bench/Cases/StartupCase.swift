/// Startup + teardown: play the 0.2 s clip to the end with null sinks (wall time), plus the same
/// programs starting without media (`--version`) to separate process start from GStreamer work.
enum StartupCase {
    static func run(_ context: BenchContext) -> CaseOutcome {
        let workload = Workload(clip: context.shortClip, sync: true, timeoutSeconds: 30)
        let media = [context.gstplayCLI, context.gstplayFirstOfKind, context.gstPlay, context.gstLaunch, context.mpv,
                     context.swiftPlaybin, context.backendDefault] + context.extraGstplayContenders
        let bare = context.processStartRows
        let rounds = context.options.startupRuns
        let series = context.interleave(media + bare, workload: workload, rounds: rounds, variantRounds: rounds, what: "startup")
        let wall: (ProcessResult) -> Double = { $0.wallSeconds }

        func rows(_ ids: [String], reference: String) -> [[String]] {
            let ref = series[id: reference]
            let refMedian = ref?.summary(wall)?.median
            return ids.compactMap { id in
                guard let run = series[id: id] else { return nil }
                let summary = run.summary(wall)
                let ratio = summary.flatMap { s in refMedian.map { s.median / $0 } }
                let paired = ref.map { run.pairedRatios(to: $0, wall) } ?? []
                return [run.contender.label, Markdown.runs(run), Markdown.spread(summary, 1, scale: 1000),
                        Markdown.ratio(ratio), Markdown.paired(paired),
                        Markdown.spread(run.summary { $0.cpuSeconds }, 1, scale: 1000)]
            }
        }
        var body = """
            Play `\(context.shortClip.split(separator: "/").last ?? "")` (0.2 s) from process start to exit; \(rounds) interleaved rounds. \
            Example: `\(series[id: "gstplay"]?.commandLine ?? "")`.

            """ + "\n"
        body += Markdown.table(["program", "runs ok", "wall ms, median (min–max)", "× gst-play-1.0", "paired ratio", "CPU ms, median (min–max)"],
                               rows(media.map(\.id), reference: "gst-play"))
        body += "\n**Process start alone** (no media, same rounds): loading the program and its libraries.\n\n"
        body += Markdown.table(["program", "runs ok", "wall ms, median (min–max)", "× gst-play-1.0 --version", "paired ratio", "CPU ms, median (min–max)"],
                               rows(bare.map(\.id), reference: "start-gst-play"))

        let chain = Decomposition(series, ids: ["gst-play", "gst-launch", "swift-playbin", "backend", "gstplay"],
                                  unit: "ms", digits: 1, scale: 1000, metric: wall)
        body += "\nSteps between medians (they add up to gstplay − gst-play-1.0): \(chain.inline).\n"

        for id in context.extraGstplayContenders.map(\.id) + ["gstplay"] {
            if let summary = series[id: id]?.summary(wall) { context.evidence.record(id == "gstplay" ? "gstplay.startup" : "extra.\(id).startup", summary.median * 1000) }
        }
        var check = TargetCheck(target: "startup ≤ 1.0× gst-play-1.0", measured: "—", status: .notMeasured("gstplay or gst-play-1.0 did not run"), why: "")
        if let subjectRun = series[id: "gstplay"], let referenceRun = series[id: "gst-play"],
           let subject = subjectRun.summary(wall), let reference = referenceRun.summary(wall) {
            let ratio = subject.median / reference.median
            let paired = subjectRun.pairedRatios(to: referenceRun, wall)
            check.measured = "\(Markdown.ratio(ratio)) (\(Markdown.number(subject.median * 1000, 1)) vs \(Markdown.number(reference.median * 1000, 1)) ms; paired \(Markdown.paired(paired)))"
            check.status = ratio <= 1.0 ? .met : .notMet
            var why = "gstplay − gst-play-1.0 = \(Markdown.signed((subject.median - reference.median) * 1000, 1)) ms on medians; gst-play-1.0's own runs spread over \(Markdown.number((reference.max - reference.min) * 1000, 1)) ms. \(Explain.noise(paired: paired, limit: 1.0))"
            why += " Steps through the variants: \(chain.inline) (steps smaller than that spread are noise)."
            if let firstRun = series[id: "gstplay-first-of-kind"], let first = firstRun.summary(wall) {
                why += " On the first play of a kind of media (no record of its plugins to load ahead), gstplay takes \(Markdown.number(first.median * 1000, 1)) ms: \(Markdown.ratio(first.median / reference.median)), paired \(Markdown.paired(firstRun.pairedRatios(to: referenceRun, wall)))."
            }
            if let own = series[id: "start-gstplay"]?.summary(wall), let theirs = series[id: "start-gst-play"]?.summary(wall),
               let initOnly = series[id: "start-init"]?.summary(wall) {
                why += " Without media, `gstplay --version` takes \(Markdown.number(own.median * 1000, 1)) ms and `gst-play-1.0 --version` (which runs gst_init) \(Markdown.number(theirs.median * 1000, 1)) ms; a Swift process that links the Backend and only calls gst_init takes \(Markdown.number(initOnly.median * 1000, 1)) ms."
            }
            check.why = why
            check.addendum = { Explain.startCost($0) }
        }
        return CaseOutcome(sections: [ReportSection(title: "Startup + teardown", body: body)], targets: [check])
    }
}
