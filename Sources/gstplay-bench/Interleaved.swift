/// All runs of one contender in one case.
struct RunSeries: Sendable {
    let contender: Contender
    /// The command line of the first run (for the report).
    var commandLine = ""
    /// One entry per round the contender took part in (nil: it was not scheduled in that round).
    var byRound: [ProcessResult?] = []

    var results: [ProcessResult] { byRound.compactMap { $0 } }
    var successes: [ProcessResult] { results.filter(\.succeeded) }
    var failures: [String] { results.compactMap(\.failureReason) }
    var attempted: Int { results.count }

    func summary(_ metric: (ProcessResult) -> Double) -> Summary? { Summary(successes.map(metric)) }

    /// `self / reference` per round where both succeeded: the paired ratios of interleaved runs.
    func pairedRatios(to reference: RunSeries, _ metric: (ProcessResult) -> Double) -> [Double] {
        var ratios: [Double] = []
        for (mine, theirs) in zip(byRound, reference.byRound) {
            guard let mine, let theirs, mine.succeeded, theirs.succeeded else { continue }
            let denominator = metric(theirs)
            if denominator > 0 { ratios.append(metric(mine) / denominator) }
        }
        return ratios
    }
}

extension BenchContext {
    /// Runs every available contender `rounds` times, interleaved: round r runs each contender
    /// once (A B C D, the start rotated by r so no one always goes first or right after the same
    /// neighbour). Variants take part only in the first `variantRounds` rounds.
    /// Each contender gets one untimed warm-up run first on the short clip (page cache, GStreamer
    /// registry, the same libraries and plugins).
    func interleave(_ contenders: [Contender], workload: Workload, rounds: Int, variantRounds: Int, what: String) -> [RunSeries] {
        var warmUp = workload
        warmUp.clip = shortClip
        var series = contenders.map { contender in
            RunSeries(contender: contender, commandLine: contender.commandLine(workload))
        }
        let runnable = series.indices.filter { series[$0].contender.unavailable == nil }
        log("\(what): warm-up")
        for index in runnable { _ = runner.run(series[index].contender.command(warmUp)) }
        for round in 0..<rounds {
            let scheduled = runnable.filter { series[$0].contender.role != .variant || round < variantRounds }
            for index in series.indices { series[index].byRound.append(nil) }
            guard !scheduled.isEmpty else { continue }
            log("\(what): round \(round + 1)/\(rounds) (\(scheduled.count) programs)")
            for step in 0..<scheduled.count {
                let index = scheduled[(step + round) % scheduled.count]
                let result = runner.run(series[index].contender.command(workload))
                if let reason = result.failureReason { log("  \(series[index].contender.label) failed: \(reason)") }
                series[index].byRound[round] = result
            }
        }
        return series
    }
}

extension Array where Element == RunSeries {
    subscript(id id: String) -> RunSeries? { first { $0.contender.id == id } }
}
