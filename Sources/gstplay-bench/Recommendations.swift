/// "What would close the gaps": fix ideas for the Backend/CLI owners, each with the figures of
/// this run that support (or rule out) it. Built from ``Evidence`` after every case ran.
enum Recommendations {
    static func markdown(_ evidence: Evidence, extras: [Contender]) -> String {
        var items: [String] = []
        func mib(_ value: Double) -> String { Markdown.number(value, 1) + " MiB" }
        func ms(_ value: Double) -> String { Markdown.number(value, 1) + " ms" }
        /// `value` as a percentage of gst-launch-1.0's CPU for the 10 s clip, when known.
        func shareOfLaunch(_ value: Double) -> String {
            guard let launch = evidence["launch.cpu"], launch > 0 else { return "" }
            return " (\(Markdown.number(value / launch * 100, 1)) % of gst-launch-1.0's CPU for the 10 s clip; the CPU target allows 2 %)"
        }

        // Memory and start: Foundation.
        if let full = evidence["probe.rss.swift-foundation"], let essentials = evidence["probe.rss.swift-essentials"] {
            var text = "**Import `FoundationEssentials` instead of `Foundation`** in the Backend and the CLI (swift-argument-parser already does). Probes: \(mib(full - essentials)) less peak RSS"
            if let cpuFull = evidence["probe.cpu.swift-foundation"], let cpuEssentials = evidence["probe.cpu.swift-essentials"] {
                text += " and \(ms(cpuFull - cpuEssentials)) less CPU per process start"
            }
            let dropped = ["libFoundation.so", "libFoundationInternationalization.so", "lib_FoundationICU.so"]
            let resident = dropped.compactMap { name in evidence["rss.lib.\(name)"].map { (name, $0) } }
            if !resident.isEmpty {
                text += "; these libraries are resident in gstplay and would go: " + resident.map { "`\($0.0)` \(mib($0.1))" }.joined(separator: ", ")
                    + " (\(mib(resident.reduce(0) { $0 + $1.1 })) in all)"
            }
            items.append(text + ".")
        }
        // Memory and start: static runtime.
        if let dynamic = evidence["probe.rss.swift"], let stat = evidence["probe.rss.swift-static"] {
            var text = "**Link the Swift runtime statically** (`swift build --static-swift-stdlib`, a build setting): probes \(mib(dynamic - stat)) less peak RSS for the standard library alone"
            if let cpu = evidence["probe.cpu.swift"], let cpuStatic = evidence["probe.cpu.swift-static"] {
                text += " and \(ms(cpu - cpuStatic)) less CPU per start"
            }
            items.append(text + ".")
        }
        for extra in extras {
            guard let rss = evidence["extra.\(extra.id).rss"], let base = evidence["gstplay.rss"] else { continue }
            var text = "**Measured: \(extra.label)** against gstplay as shipped (`make release`) in the same rounds: peak RSS \(mib(rss)) vs \(mib(base)) (\(Markdown.signed(rss - base, 1)) MiB)"
            if let cpu = evidence["extra.\(extra.id).cpu"], let baseCPU = evidence["gstplay.cpu"] {
                text += ", real-time CPU \(ms(cpu)) vs \(ms(baseCPU))"
            }
            if let start = evidence["extra.\(extra.id).startup"], let baseStart = evidence["gstplay.startup"] {
                text += ", startup \(ms(start)) vs \(ms(baseStart))"
            }
            items.append(text + " (medians; CPU and startup within the noise described above).")
        }
        if let best = evidence["probe.rss.swift-essentials-static"], let c = evidence["probe.rss.c"] {
            var text = "**Both together** still leave a do-nothing Swift program \(Markdown.signed(best - c, 1)) MiB above C (probe `FoundationEssentials` + `-static-stdlib`)"
            if let bare = evidence["probe.rss.swift-static"] {
                text += "; without any Foundation, \(Markdown.signed(bare - c, 1)) MiB"
                let budget = RealtimeCase.rssBudgetMiB
                text += best - c < budget
                    ? ". That leaves \(Markdown.number(budget - (best - c), 1)) MiB of the *peak RSS ≤ gst-play-1.0 + \(Markdown.number(budget, 0)) MiB* budget for the Backend's and the CLI's own code and data in a FoundationEssentials build with a static runtime."
                    : ". That uses the whole \(Markdown.number(budget, 0)) MiB budget before any of the Backend's or the CLI's own code and data: the *peak RSS ≤ gst-play-1.0 + \(Markdown.number(budget, 0)) MiB* target is out of reach for a Swift program on this toolchain (what the Backend and the CLI add on top of the Swift floor is measured above, in the real-time case's RSS steps)."
            }
            items.append(text)
        }
        // CPU: the Backend's periodic work.
        if let d = evidence["loop.default"], let s = evidence["loop.nostats"], let q = evidence["loop.quiet"], let seconds = evidence["loop.seconds"], seconds >= 5 {
            let tick = s - q, stats = d - s
            if tick >= 0.5 {
                items.append("**Tick only for someone who listens.** The 250 ms position tick costs \(ms(tick)) of loop-thread CPU per \(Markdown.number(seconds, 0)) s\(shareOfLaunch(tick)); `gstplay --quiet` shows no position, yet the Backend queries it four times a second. Either the CLI passes a long `positionIntervalMilliseconds` with `--quiet` (not `--json`), or the Backend skips the query while no delegate, stream or time observer wants positions.")
            } else {
                items.append("**The position tick** had no measurable cost in this run (\(ms(tick)) of loop-thread CPU per \(Markdown.number(seconds, 0)) s).")
            }
            if stats >= 0.5 {
                items.append("**Statistics on demand.** The 1 s statistics timer costs \(ms(stats)) of loop-thread CPU per \(Markdown.number(seconds, 0)) s\(shareOfLaunch(stats)). A default of `statisticsIntervalMilliseconds = 0` (statistics still available from `refreshStatistics()`) removes it.")
            } else {
                items.append("**The statistics timer** had no measurable cost in this run (\(ms(stats)) of loop-thread CPU per \(Markdown.number(seconds, 0)) s).")
            }
        }
        // Measured elsewhere in this run: keep or change?
        var small: [String] = [], notSmall: [String] = []
        if let with = evidence["scaletempo.cpu.with"], let without = evidence["scaletempo.cpu.without"], let seconds = evidence["scaletempo.seconds"] {
            let perTen = (with - without) * 10 / seconds
            let text = "`scaletempo` (keepPitch) at rate 1 costs \(Markdown.signed(perTen, 2)) ms of CPU per 10 s of audio\(shareOfLaunch(perTen))"
            if let launch = evidence["launch.cpu"], abs(perTen) / launch < 0.005 { small.append(text) } else { notSmall.append(text) }
        }
        if let standard = evidence["flags.cpu.default"], let minimal = evidence["flags.cpu.minimal"], let spread = evidence["flags.cpu.spread"] {
            let delta = (standard - minimal) / minimal * 100
            let text = "playbin's default flags vs `video+audio`: \(ms(standard)) vs \(ms(minimal)) of throughput CPU (\(Markdown.signed(delta, 1)) %; the same program's runs spread over \(Markdown.number(spread, 0)) %)"
            if abs(delta) < spread / 2 { small.append(text) } else { notSmall.append(text) }
        }
        if !small.isEmpty { items.append("**Measured and ruled out:** " + small.joined(separator: "; ") + ".") }
        if !notSmall.isEmpty { items.append("**Measured, worth a closer look:** " + notSmall.joined(separator: "; ") + ".") }
        guard !items.isEmpty else { return "" }
        return items.map { "- \($0)\n" }.joined()
    }
}
