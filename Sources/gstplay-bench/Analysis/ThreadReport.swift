/// The `threads=name:ms;…` line the `child playbin` and `child player` variants print at EOS,
/// grouped like ``ThreadSample``: the variants' own threads vs GStreamer's streaming threads.
struct ThreadReport {
    var streaming = 0.0
    var loop = 0.0
    var own = 0.0

    init?(_ result: ProcessResult) {
        guard result.succeeded, let text = result.keyValues["threads"], !text.isEmpty else { return nil }
        for item in text.split(separator: ";") {
            guard let colon = item.lastIndex(of: ":"), let ms = Double(item[item.index(after: colon)...]) else { continue }
            let name = item[..<colon]
            if name.contains(":") { streaming += ms } else {
                own += ms
                if name == "gstplay-loop" { loop += ms }
            }
        }
    }

    /// A table row per variant that printed thread figures: medians over its runs.
    static func table(_ series: [RunSeries]) -> (markdown: String, medians: [String: (own: Double, loop: Double, streaming: Double, runs: Int, streamingSpread: Double)]) {
        var rows: [[String]] = []
        var medians: [String: (own: Double, loop: Double, streaming: Double, runs: Int, streamingSpread: Double)] = [:]
        for run in series {
            let reports = run.successes.compactMap(ThreadReport.init)
            guard let own = Summary(reports.map(\.own)), let streaming = Summary(reports.map(\.streaming)),
                  let loop = Summary(reports.map(\.loop)) else { continue }
            medians[run.contender.id] = (own.median, loop.median, streaming.median, reports.count, streaming.max - streaming.min)
            rows.append([run.contender.label, "\(reports.count)", Markdown.spread(own, 1), Markdown.spread(loop, 1), Markdown.spread(streaming, 1)])
        }
        guard !rows.isEmpty else { return ("", medians) }
        let table = Markdown.table(["variant", "runs", "own threads (main, Backend loop, …) CPU ms", "of which the Backend loop thread", "GStreamer streaming threads CPU ms"], rows)
        return (table, medians)
    }

    /// The *CPU by thread of the variants* paragraph of a case's report (empty when no variant
    /// printed thread figures), with each variant's medians recorded as `key.<variant>.own`,
    /// `.loop`, `.streaming`, `.streamingSpread` and `.runs` in `evidence`.
    static func section(_ series: [RunSeries], key: String, evidence: Evidence)
        -> (markdown: String, medians: [String: (own: Double, loop: Double, streaming: Double, runs: Int, streamingSpread: Double)]) {
        let threadTable = table(series)
        guard !threadTable.markdown.isEmpty else { return ("", threadTable.medians) }
        for (id, value) in threadTable.medians {
            evidence.record("\(key).\(id).own", value.own)
            evidence.record("\(key).\(id).loop", value.loop)
            evidence.record("\(key).\(id).streaming", value.streaming)
            evidence.record("\(key).\(id).streamingSpread", value.streamingSpread)
            evidence.record("\(key).\(id).runs", Double(value.runs))
        }
        let heading = "\n**CPU by thread of the variants** (each prints its threads' CPU time, `/proc/self/task/*/schedstat`, at EOS; medians, min–max):\n\n"
        return (heading + threadTable.markdown, threadTable.medians)
    }
}
