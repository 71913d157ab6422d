import Foundation
import Glibc

/// Where the memory and the CPU go: the resident pages of each program while it plays (read
/// from `/proc/PID/smaps` a few seconds in), grouped by what they belong to; the CPU time of
/// its threads at that moment; and tiny probe programs compiled on the spot that show what a
/// Swift runtime and Foundation cost by themselves.
enum MemoryCase {
    static func run(_ context: BenchContext) -> CaseOutcome {
        let workload = Workload(clip: context.tenSecondClip, sync: true, timeoutSeconds: 60)
        // Late in the 10 s clip, so the thread CPU covers nearly the whole playback.
        let delay = context.smoke ? 1.0 : 6.0
        let programs = [context.gstplayCLI, context.gstPlay, context.gstLaunch, context.swiftPlaybin, context.backendDefault]
            + context.extraGstplayContenders
        var samples: [(Contender, Result<(SmapsSample, ThreadSample?), BenchError>)] = []
        for contender in programs {
            if let why = contender.unavailable { samples.append((contender, .failure(BenchError(why)))); continue }
            context.log("memory: sampling \(contender.label)")
            samples.append((contender, sample(contender.command(workload), after: delay, runner: context.runner)))
        }

        var body = """
            Each program plays `\(context.tenSecondClip.split(separator: "/").last ?? "")` in real time; \(Markdown.number(delay, 1)) s after it was started, its `/proc/PID/smaps` is read and \
            the `Rss` of every mapping is added to the group it belongs to (MiB; one sample per program, then the program is killed).

            """ + "\n"
        let okSamples = samples.compactMap { item -> (Contender, SmapsSample)? in
            if case .success(let sample) = item.1 { return (item.0, sample.0) }
            return nil
        }
        let threadSamples = samples.compactMap { item -> (Contender, ThreadSample)? in
            if case .success(let sample) = item.1, let threads = sample.1 { return (item.0, threads) }
            return nil
        }
        var rows: [[String]] = []
        for category in SmapsSample.Category.allCases {
            rows.append([category.rawValue] + okSamples.map { Markdown.number(Double($0.1.kib[category] ?? 0) / 1024, 1) })
        }
        rows.append(["**total**"] + okSamples.map { "**\(Markdown.number(Double($0.1.totalKiB) / 1024, 1))**" })
        rows.append(["of which anonymous / file-backed (`RssAnon` / `RssFile`)"] + okSamples.map {
            "\(Markdown.number(Double($0.1.rssAnonKiB) / 1024, 1)) / \(Markdown.number(Double($0.1.rssFileKiB) / 1024, 1))"
        })
        rows.append(["threads"] + okSamples.map { "\($0.1.threads)" })
        body += Markdown.table(["resident MiB"] + okSamples.map { $0.0.label }, rows)
        for (contender, result) in samples {
            if case .failure(let error) = result { body += "\n- \(contender.label): **not sampled** — \(error)\n" }
        }
        if let cli = okSamples.first(where: { $0.0.id == "gstplay" })?.1 {
            for mapping in cli.swiftMappings { context.evidence.record("rss.lib.\(mapping.name)", Double(mapping.kib) / 1024) }
            let top = cli.swiftMappings.prefix(8).map { "`\($0.name)` \(Markdown.number(Double($0.kib) / 1024, 1))" }
            if !top.isEmpty { body += "\nSwift and Foundation libraries resident in gstplay (MiB): \(top.joined(separator: ", ")).\n" }
        }

        context.evidence.record("threads.window", delay)
        for (contender, threads) in threadSamples {
            context.evidence.record("threads.\(contender.id).streaming", threads.milliseconds(.streaming))
            context.evidence.record("threads.\(contender.id).own", threads.totalMilliseconds - threads.milliseconds(.streaming))
            context.evidence.record("threads.\(contender.id).loop", threads.milliseconds(.loop))
            context.evidence.record("threads.\(contender.id).total", threads.totalMilliseconds)
        }
        if !threadSamples.isEmpty {
            body += "\n**CPU by thread** at the same moment (ms on a CPU since the program started, `/proc/PID/task/*/schedstat`):\n\n"
            var threadRows: [[String]] = []
            for group in ThreadSample.Group.allCases {
                threadRows.append([group.rawValue] + threadSamples.map { Markdown.number($0.1.milliseconds(group), 1) })
            }
            threadRows.append(["**total**"] + threadSamples.map { "**\(Markdown.number($0.1.totalMilliseconds, 1))**" })
            body += Markdown.table(["CPU ms"] + threadSamples.map { $0.0.label }, threadRows)
            body += "\nThreads outside GStreamer's streaming threads (ms): "
                + threadSamples.map { "\($0.0.label): \($0.1.nonStreamingList)" }.joined(separator: "; ") + ".\n"
        }

        let probes = Probe.measure(context)
        body += "\n**Probe programs** (compiled here with `swiftc -O` / `cc -O2`; each only prints its own peak RSS, `VmHWM`, and exits; median of \(context.smoke ? 1 : 5) runs):\n\n"
        body += Markdown.table(["probe", "peak RSS MiB", "Δ vs C, MiB", "wall ms", "CPU ms"], probes.rows)

        var notes: [String] = []
        if let cli = okSamples.first(where: { $0.0.id == "gstplay" })?.1, let play = okSamples.first(where: { $0.0.id == "gst-play" })?.1 {
            let gap = Double(cli.totalKiB - play.totalKiB) / 1024
            let swift = Double(cli.kib[.swiftRuntime] ?? 0) / 1024, foundation = Double(cli.kib[.foundation] ?? 0) / 1024
            let executable = Double((cli.kib[.executable] ?? 0) - (play.kib[.executable] ?? 0)) / 1024
            let anonymous = Double((cli.kib[.anonymous] ?? 0) - (play.kib[.anonymous] ?? 0)) / 1024
            context.evidence.record("rss.gstplay.gap", gap)
            context.evidence.record("rss.gstplay.swift", swift)
            context.evidence.record("rss.gstplay.foundation", foundation)
            context.evidence.record("rss.gstplay.anon", anonymous)
            context.evidence.record("rss.gstplay.executable", executable)
            notes.append("In this sample gstplay holds \(Markdown.signed(gap, 1)) MiB more than gst-play-1.0: Foundation's libraries \(Markdown.number(foundation, 1)) MiB, the Swift runtime libraries \(Markdown.number(swift, 1)) MiB, the executable \(Markdown.signed(executable, 1)) MiB, heap and anonymous memory \(Markdown.signed(anonymous, 1)) MiB.")
        }
        if let found = probes.delta("swift-foundation"), let essentials = probes.delta("swift-essentials"), let bare = probes.delta("swift"), let stat = probes.delta("swift-static") {
            notes.append("A Swift program that does nothing costs \(Markdown.signed(bare, 1)) MiB over C (\(Markdown.signed(stat, 1)) MiB with the standard library linked statically); importing FoundationEssentials raises that to \(Markdown.signed(essentials, 1)) MiB and full Foundation to \(Markdown.signed(found, 1)) MiB.")
        }
        if !notes.isEmpty { body += "\n" + notes.joined(separator: " ") + "\n" }
        return CaseOutcome(sections: [ReportSection(title: "Where the memory and the CPU go", body: body)], targets: [])
    }

    /// Starts `spec`, reads its smaps after `delay` seconds, kills it.
    static func sample(_ spec: ProcessSpec, after delay: Double, runner: ProcessRunner) -> Result<(SmapsSample, ThreadSample?), BenchError> {
        switch runner.spawn(spec) {
        case .failure(let failure):
            return .failure(BenchError(failure.result.failureReason ?? "could not start"))
        case .success(let process):
            usleep(useconds_t(delay * 1e6))
            let threads = ThreadSample(pid: process.pid)
            let sample = SmapsSample(pid: process.pid)
            process.send(SIGKILL)
            let result = process.wait()
            guard let sample else {
                return .failure(BenchError("exited before the sample: \(result.failureReason ?? "exit status 0")"))
            }
            if case .exited = result.termination {
                return .failure(BenchError("exited before the sample was taken"))
            }
            return .success((sample, threads))
        }
    }
}
