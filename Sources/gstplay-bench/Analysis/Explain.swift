/// Sentences shared by the targets' explanations.
enum Explain {
    /// Whether the paired ratios straddle `limit`: then the verdict is not robust at this noise level.
    static func noise(paired: [Double], limit: Double) -> String {
        guard let summary = Summary(paired), summary.count > 1 else { return "" }
        if summary.min <= limit && summary.max > limit {
            return "The per-round paired ratios span \(Markdown.number(summary.min, 3))–\(Markdown.number(summary.max, 3)), on both sides of \(Markdown.number(limit, 2)): at this machine's noise the verdict can flip from run to run."
        }
        return "All per-round paired ratios (\(Markdown.number(summary.min, 3))–\(Markdown.number(summary.max, 3))) are on the same side of \(Markdown.number(limit, 2))."
    }

    /// The fixed cost of starting a Swift process with Foundation, from the probes.
    static func startCost(_ evidence: Evidence) -> String {
        guard let foundation = evidence["probe.cpu.swift-foundation"], let c = evidence["probe.cpu.c"],
              let foundationWall = evidence["probe.wall.swift-foundation"], let cWall = evidence["probe.wall.c"] else { return "" }
        var text = "Every start of a process linking the Swift runtime and Foundation costs \(Markdown.number(foundation - c, 1)) ms of CPU (\(Markdown.number(foundationWall - cWall, 1)) ms wall) more than a C program (probes)"
        if let essentials = evidence["probe.cpu.swift-essentials"], let bare = evidence["probe.cpu.swift"] {
            text += "; with FoundationEssentials only \(Markdown.number(essentials - c, 1)) ms, with the standard library alone \(Markdown.number(bare - c, 1)) ms"
        }
        return text + "."
    }

    /// CPU of gstplay's own threads vs the reference's non-streaming threads, from the thread sample.
    static func threads(_ evidence: Evidence, reference: String, referenceLabel: String) -> String {
        guard let window = evidence["threads.window"], let own = evidence["threads.gstplay.own"],
              let streaming = evidence["threads.gstplay.streaming"],
              let refOwn = evidence["threads.\(reference).own"], let refStreaming = evidence["threads.\(reference).streaming"] else { return "" }
        var text = "By thread, over the first \(Markdown.number(window, 1)) s of the 10 s clip (one sample each): gstplay's threads outside GStreamer's streaming threads (main, the Backend loop, the controller queue, the console reader) used \(Markdown.number(own, 1)) ms of CPU"
        if let loop = evidence["threads.gstplay.loop"] { text += " (the Backend loop thread \(Markdown.number(loop, 1)) ms)" }
        text += " against \(Markdown.number(refOwn, 1)) ms for \(referenceLabel)'s; the streaming threads, which decode and render, used \(Markdown.number(streaming, 1)) vs \(Markdown.number(refStreaming, 1)) ms."
        if let refTotal = evidence["threads.\(reference).total"], refTotal > 0 {
            text += " gstplay's own threads alone add \(Markdown.number((own - refOwn) / refTotal * 100, 1)) % to \(referenceLabel)'s CPU in that window — a cost of gstplay's own threads, untouched by the run-to-run noise of the streaming threads (the target allows 2 %)."
        }
        if let d = evidence["loop.default"], let q = evidence["loop.quiet"], let seconds = evidence["loop.seconds"], seconds >= 5 {
            text += " Of the Backend loop thread's \(Markdown.number(d, 1)) ms per \(Markdown.number(seconds, 0)) s, the position tick and the statistics timer take \(Markdown.number(d - q, 1)) ms (real-time case, *the Backend loop thread's budget*)."
        }
        return text
    }

    /// The Backend variant's own threads vs the Swift floor's, from the variants' thread reports.
    static func variantThreads(_ evidence: Evidence, key: String) -> String {
        guard let backendOwn = evidence["\(key).backend.own"], let floorOwn = evidence["\(key).swift-playbin.own"],
              let loop = evidence["\(key).backend.loop"], let backendStreaming = evidence["\(key).backend.streaming"],
              let floorStreaming = evidence["\(key).swift-playbin.streaming"],
              let spread = evidence["\(key).swift-playbin.streamingSpread"] else { return "" }
        let streamingDelta = backendStreaming - floorStreaming
        let runs = Int(evidence["\(key).swift-playbin.runs"] ?? 0)
        let spreadNote = runs >= 3
            ? ", \(abs(streamingDelta) <= spread ? "inside" : "outside") their run-to-run spread of \(Markdown.number(spread, 1)) ms"
            : ", from \(runs) run\(runs == 1 ? "" : "s") each"
        return "Thread by thread (variants, medians): the Backend Player's own threads used \(Markdown.number(backendOwn, 1)) ms of CPU (its loop thread \(Markdown.number(loop, 1)) ms; it also builds and tears down the pipeline) against \(Markdown.number(floorOwn, 1)) ms for the Swift floor's main thread, so the Backend's own work costs \(Markdown.signed(backendOwn - floorOwn, 1)) ms; GStreamer's streaming threads used \(Markdown.number(backendStreaming, 1)) vs \(Markdown.number(floorStreaming, 1)) ms (\(Markdown.signed(streamingDelta, 1)) ms\(spreadNote))."
    }
}
