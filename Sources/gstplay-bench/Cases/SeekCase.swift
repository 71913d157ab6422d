/// Seek latency in one process: Backend API vs the same seeks on a bare playbin (the floor).
enum SeekCase {
    static func run(_ context: BenchContext) -> CaseOutcome {
        let clip = context.smoke ? context.tenSecondClip : context.thirtySecondClip
        let count = context.options.seeks
        let settle = 20
        let paths = ["backend", "backend-nopitch", "floor"]
        let labels = ["backend": "Backend `Player.seek(to:)` → `.seekDone`",
                      "backend-nopitch": "Backend, keepPitch off (no scaletempo)",
                      "floor": "direct `playbin`: `gst_element_seek_simple` → ASYNC_DONE (floor)"]
        context.log("seek: \(count) seeks × \(paths.count) paths")
        let spec = ProcessSpec(executable: context.benchExecutable,
                               arguments: ["child", "seek", "--count", "\(count)", "--seed", "\(context.options.seed)",
                                           "--settle-ms", "\(settle)", "--paths", paths.joined(separator: ","), clip],
                               timeoutSeconds: 600)
        let result = context.runner.run(spec)
        var check = TargetCheck(target: "Backend seek latency ≤ 1.05× the direct floor", measured: "—", status: .notMeasured("the seek run failed"), why: "")
        var body = """
            `\(spec.commandLine)`: one process, one paused (prerolled) pipeline per path, the same \(count) pseudo-random positions (seed \(context.options.seed)) \
            in `\(clip.split(separator: "/").last ?? "")`; per position the paths take turns (the first rotates), \(settle) ms apart. \
            Seek flags are the same for all: FLUSH | ACCURATE, rate 1, in PAUSED. The Backend players use `seekThrottle = .milliseconds(1)` \
            (the default 500 ms throttle would delay back-to-back seeks; with 1 ms and seeks ≥ \(settle) ms apart none is delayed or merged). \
            Latency: from the call to the moment the result is delivered — the Backend's delegate call on its loop thread, or the return of \
            `gst_bus_timed_pop_filtered` for the floor.

            """ + "\n"
        guard result.succeeded else {
            body += "**The seek run failed:** \(result.failureReason ?? "?")\n"
            return CaseOutcome(sections: [ReportSection(title: "Seek latency", body: body)], targets: [check])
        }
        let values = result.keyValues
        func numbers(_ key: String) -> [Double] { (values[key] ?? "").split(separator: ",").compactMap { Double($0) } }
        let floor = numbers("samples.floor")
        let floorSummary = Summary(floor)
        var rows: [[String]] = []
        for path in paths {
            let samples = numbers("samples.\(path)")
            guard let summary = Summary(samples) else { rows.append([labels[path] ?? path, "0", "—", "—", "—", "—", "—", "—", "—"]); continue }
            let paired = zip(samples, floor).map { $0 - $1 }
            let errors = Summary(numbers("error.\(path)"))
            rows.append([labels[path] ?? path, "\(summary.count)",
                         Markdown.number(summary.median, 2), Markdown.number(summary.p95, 2),
                         "\(Markdown.number(summary.min, 2))–\(Markdown.number(summary.max, 2))",
                         Markdown.ratio(floorSummary.map { summary.median / $0.median }),
                         Markdown.ratio(floorSummary.map { summary.p95 / $0.p95 }),
                         path == "floor" ? "—" : Summary(paired).map { Markdown.signed($0.median, 2) } ?? "—",
                         errors.map { Markdown.number($0.max, 1) } ?? "—"])
        }
        body += Markdown.table(["path", "seeks", "median ms", "p95 ms", "min–max ms", "median × floor", "p95 × floor",
                                "paired Δ vs floor, median ms", "max |landed − requested| ms"], rows)
        let backend = numbers("samples.backend")
        if let subject = Summary(backend), let reference = floorSummary {
            let ratio = subject.median / reference.median
            let paired = Summary(zip(backend, floor).map { $0 - $1 })
            check.measured = "median \(Markdown.ratio(ratio)) (\(Markdown.number(subject.median, 2)) vs \(Markdown.number(reference.median, 2)) ms), p95 \(Markdown.ratio(subject.p95 / reference.p95))"
            check.status = ratio <= 1.05 ? .met : .notMet
            var why = "Seek for seek, the Backend took \(paired.map { Markdown.signed($0.median, 2) } ?? "?") ms (median of the paired differences) over the floor."
            if let noPitch = Summary(numbers("samples.backend-nopitch")) {
                why += " Without scaletempo the Backend's median is \(Markdown.number(noPitch.median, 2)) ms (\(Markdown.ratio(noPitch.median / reference.median)) the floor)."
            }
            why += " The Backend's extra path per seek: the command hops to the loop thread (`g_main_context_invoke`), a marker message is posted before the seek, ASYNC_DONE arrives through the bus watch on the loop's GMainContext (instead of a thread blocked on the bus), and a position query runs before `.seekDone` is delivered."
            check.why = why
        }
        return CaseOutcome(sections: [ReportSection(title: "Seek latency", body: body)], targets: [check])
    }
}
