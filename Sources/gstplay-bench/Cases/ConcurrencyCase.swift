/// Many Backends in one process, each playing the clip at once; the same count of bare playbins
/// in one process as the floor. One child process per count and kind.
enum ConcurrencyCase {
    private struct Row {
        let count: Int
        let raw: Bool
        let result: ProcessResult
        var values: [String: String] { result.keyValues }
        func number(_ key: String) -> Double { Double(values[key] ?? "") ?? 0 }
        var peakMiB: Double { number("peak_rss_kib") / 1024 }
        var baseMiB: Double { number("base_rss_kib") / 1024 }
    }

    static func run(_ context: BenchContext) -> CaseOutcome {
        let clip = context.smoke ? context.shortClip : context.tenSecondClip
        let counts = context.smoke ? [1, 4] : [1, 8, 32]
        var rows: [Row] = []
        for count in counts {
            for raw in [false, true] {
                context.log("concurrency: \(count) \(raw ? "bare playbins" : "Backend players")")
                let spec = ProcessSpec(executable: context.benchExecutable,
                                       arguments: ["child", "concurrency", "--raw", "\(raw)", "\(count)", clip], timeoutSeconds: 400)
                rows.append(Row(count: count, raw: raw, result: context.runner.run(spec)))
            }
        }

        /// (peak(N) − peak(1)) / (N − 1) for the same kind.
        func marginal(_ row: Row) -> Double? {
            guard row.count > 1, row.result.succeeded,
                  let single = rows.first(where: { $0.count == 1 && $0.raw == row.raw && $0.result.succeeded }) else { return nil }
            return (row.peakMiB - single.peakMiB) / Double(row.count - 1)
        }

        var table: [[String]] = []
        for row in rows {
            let kind = row.raw ? "bare playbin (floor)" : "Backend `Player`"
            guard row.result.succeeded else {
                table.append([kind, "\(row.count)", "**failed**: \(row.result.failureReason ?? "?")", "", "", "", "", "", "", ""]); continue
            }
            let eos = Int(row.number("eos")), errors = Int(row.number("errors"))
            let cpu = row.number("user") + row.number("sys")
            let errorText = errors > 0 ? " (\(errors) errors: \(row.values["first_error"] ?? ""))" : ""
            table.append([kind, "\(row.count)", "\(eos)/\(row.count)\(errorText)", Markdown.number(row.number("wall"), 2),
                          Markdown.number(cpu, 2), Markdown.number(cpu / Double(row.count), 3),
                          Markdown.number(row.baseMiB, 1), Markdown.number(row.peakMiB, 1),
                          Markdown.number((row.peakMiB - row.baseMiB) / Double(row.count), 2),
                          marginal(row).map { Markdown.number($0, 2) } ?? "—"])
        }
        var body = """
            `gstplay-bench child concurrency [--raw true] N CLIP`: N players in one fresh process play `\(clip.split(separator: "/").last ?? "")` at once \
            (fake sinks, `sync=true`). Wall and CPU (`getrusage(RUSAGE_SELF)` deltas) run from just before the first player is created until the last \
            one reached EOS; RSS is `VmRSS` after `gst_init` (base) and its peak while playing (`VmRSS` sampled every 100 ms, and `VmHWM` at the end). \
            The floor runs N bare `playbin`s whose buses the main thread polls every 10 ms. One run per row.

            """ + "\n"
        body += Markdown.table(["players", "N", "reached EOS", "wall s", "CPU s", "CPU s / player", "base RSS MiB", "peak RSS MiB",
                                "(peak − base) / N, MiB", "each extra player, MiB"], table)
        body += "\n*Each extra player* = (peak(N) − peak(1)) / (N − 1): what one more player costs once the libraries and plugins are loaded.\n"

        let largest = counts.max() ?? 0
        var check = TargetCheck(target: "\(largest) concurrent players all reach EOS", measured: "—", status: .notMeasured("the run failed"), why: "")
        if context.smoke { check.target += " (smoke; the full bench uses 32)" }
        if let row = rows.first(where: { $0.count == largest && !$0.raw }) {
            if row.result.succeeded {
                let eos = Int(row.number("eos")), errors = Int(row.number("errors"))
                check.measured = "\(eos)/\(largest) reached EOS" + (errors > 0 ? ", \(errors) errors" : "")
                    + " in \(Markdown.number(row.number("wall"), 1)) s for a \(context.smoke ? "0.2" : "10") s clip"
                check.status = eos == largest ? .met : .notMet
                var why = eos == largest ? "Every player got its `.endOfStream`."
                    : "Missing ends: \(largest - eos); first error: \(row.values["first_error"].flatMap { $0.isEmpty ? nil : $0 } ?? "none") (a player that neither ended nor failed timed out)."
                if let backend = marginal(row), let floorRow = rows.first(where: { $0.count == largest && $0.raw }), let raw = marginal(floorRow) {
                    why += " Each extra player costs \(Markdown.number(backend, 2)) MiB as a Backend vs \(Markdown.number(raw, 2)) MiB as a bare playbin (\(Markdown.signed(backend - raw, 2)) MiB: the Backend's loop thread with its stack, its GMainContext, the scaletempo filter, the Swift objects)."
                }
                check.why = why
            } else {
                check.measured = "run failed"
                check.status = .notMet
                check.why = "The child process failed: \(row.result.failureReason ?? "?")."
            }
        }
        return CaseOutcome(sections: [ReportSection(title: "Concurrency", body: body)], targets: [check])
    }
}
