import Foundation

/// Tick cadence: intervals between `.position` events at a 250 ms position interval, beside a
/// bare GLib timer with the same interval in the same process (the floor).
enum TickCase {
    static func run(_ context: BenchContext) -> CaseOutcome {
        let clip = context.smoke ? context.tenSecondClip : context.thirtySecondClip
        let seconds = context.options.tickSeconds
        let interval = 250.0
        context.log("tick: \(seconds) s at \(Int(interval)) ms")
        let spec = ProcessSpec(executable: context.benchExecutable,
                               arguments: ["child", "tick", "--seconds", Markdown.number(seconds, 1), "--interval", "\(Int(interval))", clip],
                               timeoutSeconds: seconds + 60)
        let result = context.runner.run(spec)
        var check = TargetCheck(target: "tick p99 |deviation from 250 ms| ≤ 5 ms", measured: "—", status: .notMeasured("the tick run failed"), why: "")
        var body = """
            `\(spec.commandLine)`: one Backend `Player` (`positionInterval = .milliseconds(250)`, fake sinks `sync=true`) plays; the arrival time \
            (`CLOCK_MONOTONIC`, taken in the delegate on the loop thread) of every `.position` event while `playing` is recorded for \(Markdown.number(seconds, 0)) s. \
            The floor is a bare GLib timeout with the same interval on its own GMainContext and thread in the same process, noting when it fires.

            """ + "\n"
        guard result.succeeded else {
            body += "**The tick run failed:** \(result.failureReason ?? "?")\n"
            return CaseOutcome(sections: [ReportSection(title: "Tick cadence", body: body)], targets: [check])
        }
        let values = result.keyValues
        func numbers(_ key: String) -> [Double] { (values[key] ?? "").split(separator: ",").compactMap { Double($0) } }
        let times = numbers("times"), positions = numbers("positions")
        guard let first = times.first, let last = times.last, times.count > 2 else {
            body += "**Too few position events** (\(times.count)).\n"
            check.status = .notMeasured("fewer than three ticks")
            return CaseOutcome(sections: [ReportSection(title: "Tick cadence", body: body)], targets: [check])
        }
        let floorTimes = numbers("floor").filter { $0 >= first - 0.3 && $0 <= last + 0.3 }

        struct Series {
            let intervals: [Double]
            let deviations: [Double]
            let spans: [(Double, Double)]
            init(_ times: [Double], interval: Double) {
                intervals = zip(times.dropFirst(), times).map { ($0 - $1) * 1000 }
                deviations = intervals.map { abs($0 - interval) }
                spans = Array(zip(times, times.dropFirst()))
            }
        }
        let backend = Series(times, interval: interval), floor = Series(floorTimes, interval: interval)
        func row(_ label: String, _ series: Series, count: Int) -> [String] {
            guard let spread = Summary(series.intervals), let deviation = Summary(series.deviations) else { return [label, "\(count)", "—", "—", "—", "—", "—"] }
            return [label, "\(count)", Markdown.number(spread.median, 2), "\(Markdown.number(spread.min, 2))–\(Markdown.number(spread.max, 2))",
                    Markdown.number(deviation.p99, 2), Markdown.number(deviation.max, 2), "\(series.deviations.filter { $0 > 5 }.count)"]
        }
        body += Markdown.table(["timer", "ticks", "median interval ms", "min–max ms", "p99 |dev| ms", "max |dev| ms", "intervals off by > 5 ms"], [
            row("Backend `.position` events", backend, count: times.count),
            row("bare GLib timeout (floor)", floor, count: floorTimes.count),
        ])
        let steps = zip(positions.dropFirst(), positions).map { ($0 - $1) * 1000 }
        if let step = Summary(steps) {
            body += "\nMedia position between consecutive `.position` events: median \(Markdown.number(step.median, 1)) ms (\(Markdown.number(step.min, 1))–\(Markdown.number(step.max, 1))).\n"
        }
        let waits = numbers("waits")
        let waitDeltas = waits.count == times.count ? zip(waits.dropFirst(), waits).map { ($0 - $1) / 1e6 } : []
        if let allWaits = Summary(waitDeltas) {
            body += "\nRun-queue wait of the Backend loop thread per interval (runnable, no CPU): median \(Markdown.number(allWaits.median, 3)) ms, max \(Markdown.number(allWaits.max, 2)) ms.\n"
        }

        guard let spread = Summary(backend.intervals), let deviation = Summary(backend.deviations) else { return CaseOutcome(sections: [ReportSection(title: "Tick cadence", body: body)], targets: [check]) }
        let drift = (last - first) * 1000 / Double(backend.intervals.count) - interval
        check.measured = "p99 \(Markdown.number(deviation.p99, 2)) ms (median interval \(Markdown.number(spread.median, 2)) ms, max deviation \(Markdown.number(deviation.max, 2)) ms)"
        check.status = deviation.p99 <= 5 ? .met : .notMet
        var why = "The tick is a GLib timeout (`g_timeout_source_new(250)`) on the player's own GMainContext; GLib re-arms it from the dispatch time, so each interval is 250 ms plus the wake-up latency (mean drift \(Markdown.signed(drift, 3)) ms per tick here)."
        let lateIndices = backend.deviations.indices.filter { backend.deviations[$0] > 5 }
        if !lateIndices.isEmpty {
            let shared = lateIndices.filter { index in
                let (start, end) = backend.spans[index]
                return floor.spans.indices.contains { j in floor.deviations[j] > 5 && floor.spans[j].0 < end && floor.spans[j].1 > start }
            }.count
            why += " \(lateIndices.count) of \(backend.intervals.count) intervals were off by more than 5 ms; \(shared) of them overlap a late interval of the bare GLib timer, which does no work at all"
            if let floorDeviation = Summary(floor.deviations) {
                why += " (the floor's own p99 is \(Markdown.number(floorDeviation.p99, 2)) ms, max \(Markdown.number(floorDeviation.max, 2)) ms)"
            }
            func deltas(_ key: String, scale: Double) -> [Double] {
                let values = numbers(key)
                return values.count == times.count ? zip(values.dropFirst(), values).map { ($0 - $1) * scale } : []
            }
            let runDeltas = deltas("runs", scale: 1e-6), stealDeltas = deltas("steals", scale: 1000)
            func late(_ values: [Double]) -> [Double] { lateIndices.compactMap { $0 < values.count ? values[$0] : nil } }
            let lateness = Summary(late(backend.deviations))?.median ?? 0
            if let wait = Summary(late(waitDeltas)), let ran = Summary(late(runDeltas)) {
                why += "; in those intervals the loop thread ran for \(Markdown.number(ran.median, 2)) ms and waited for a CPU \(Markdown.number(wait.median, 2)) ms (medians, `/proc/thread-self/schedstat`) against a median lateness of \(Markdown.number(lateness, 2)) ms"
                let steal = Summary(late(stealDeltas))?.median ?? 0
                let onTime = stealDeltas.indices.filter { !lateIndices.contains($0) }.map { stealDeltas[$0] }
                let typicalSteal = onTime.isEmpty ? 0 : onTime.reduce(0, +) / Double(onTime.count)
                if ran.median > lateness / 2 {
                    why += ", so it was busy running Backend code when the tick was due."
                } else if wait.median > lateness / 2 {
                    why += ", so it was waiting for a CPU."
                } else if steal > typicalSteal {
                    why += ": neither running nor runnable as far as the guest can see, while the machine recorded \(Markdown.number(steal, 0)) ms of hypervisor steal in those intervals (median; \(Markdown.number(typicalSteal, 1)) ms on average in the others; `/proc/stat`, both vCPUs, 10 ms resolution) — a paused vCPU looks exactly like this."
                } else {
                    why += ": neither running nor runnable, and no more hypervisor steal than in other intervals (\(Markdown.number(steal, 0)) vs \(Markdown.number(typicalSteal, 1)) ms), so the loop thread was most likely blocked inside a call (the tick's position query or the event delivery) — a Backend-side wait worth a closer look."
                }
            } else {
                why += "."
            }
        } else {
            why += " No interval was off by more than 5 ms."
        }
        check.why = why
        check.addendum = { evidence in
            guard let load = evidence["load.tick"] else { return "" }
            return "Other processes used \(Markdown.number(load, 0)) % of one CPU (of \(ProcessInfo.processInfo.activeProcessorCount)) while this case ran."
        }
        return CaseOutcome(sections: [ReportSection(title: "Tick cadence", body: body)], targets: [check])
    }
}
