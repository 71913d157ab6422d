import Foundation

/// The harness's command line (parsed by hand: no package dependencies).
struct BenchOptions: Sendable {
    /// Directory with bench-short.mp4, bench-10s.mp4, bench-30s.mp4 (`Fixtures/make-fixtures.sh --bench DIR`).
    var clips = ".build-bench"
    /// Where the markdown goes.
    var output = "docs/BENCHMARKS.md"
    /// Few repetitions and short windows: proves the harness works (CI).
    var smoke = false
    /// The gstplay binary under test; default: next to this executable.
    var gstplay: String?
    /// Extra gstplay builds measured as variants: (label, path), from `--also LABEL=PATH`.
    var also: [(label: String, path: String)] = []
    /// Only these cases (ids), all when empty.
    var only: Set<String> = []

    // Repetitions (0 = the mode's default).
    var startupRuns = 0
    var realtimeRuns = 0
    var variantRuns = 0
    var throughputRuns = 0
    var seeks = 0
    var tickSeconds = 0.0
    var seed: UInt64 = 20_240_601

    static let caseIDs = ["startup", "realtime", "throughput", "memory", "seek", "tick", "concurrency", "abr", "cache", "thumbnail", "abr-live", "footprint", "first-frame"]

    static let usage = """
        usage: gstplay-bench [--clips DIR] [--out FILE] [--smoke] [--gstplay PATH] [--also LABEL=PATH]… [--only CASE,…]
                             [--startup-runs N] [--realtime-runs N] [--variant-runs N] [--throughput-runs N]
                             [--seeks N] [--tick-seconds S] [--seed N]
               gstplay-bench child MODE …   (the measured programs; see `gstplay-bench child`)

        Runs every case, interleaving the contenders run by run, and writes a markdown report.
          --clips DIR   bench clips from `Fixtures/make-fixtures.sh --bench DIR` (default .build-bench)
          --out FILE    the report (default docs/BENCHMARKS.md)
          --smoke       2/1/1 runs, short clips and windows: checks the harness works (≤ 1 min)
          --gstplay P   the gstplay binary (default: the one next to this executable)
          --also L=P    also measure another gstplay build P (e.g. a debug or static-stdlib build) as a variant
          --only LIST   some of: \(caseIDs.joined(separator: ", "))
        """

    init(_ arguments: [String]) throws {
        var cursor = ArgumentCursor(arguments)
        while let flag = cursor.next() {
            switch flag {
            case "--clips": clips = try cursor.value()
            case "--out": output = try cursor.value()
            case "--smoke": smoke = true
            case "--gstplay": gstplay = try cursor.value()
            case "--also":
                let text = try cursor.value()
                guard let equals = text.firstIndex(of: "="), equals != text.startIndex else { throw BenchError("--also takes LABEL=PATH") }
                also.append((String(text[..<equals]), String(text[text.index(after: equals)...])))
            case "--only":
                only = Set(try cursor.value().split(separator: ",").map(String.init))
                if let bad = only.first(where: { !Self.caseIDs.contains($0) }) { throw BenchError("unknown case '\(bad)'") }
            case "--startup-runs": startupRuns = try cursor.wholeNumber()
            case "--realtime-runs": realtimeRuns = try cursor.wholeNumber()
            case "--variant-runs": variantRuns = try cursor.wholeNumber()
            case "--throughput-runs": throughputRuns = try cursor.wholeNumber()
            case "--seeks": seeks = try cursor.wholeNumber()
            case "--tick-seconds":
                let text = try cursor.value()
                guard let seconds = Double(text), seconds > 0 else { throw BenchError("--tick-seconds takes a positive number") }
                tickSeconds = seconds
            case "--seed": seed = UInt64(try cursor.wholeNumber())
            case "-h", "--help": throw BenchError.help
            default: throw BenchError("unknown argument '\(flag)'")
            }
        }
        if startupRuns == 0 { startupRuns = smoke ? 2 : 12 }
        if realtimeRuns == 0 { realtimeRuns = smoke ? 1 : 5 }
        if variantRuns == 0 { variantRuns = smoke ? 1 : 2 }
        if throughputRuns == 0 { throughputRuns = smoke ? 1 : 15 }
        if seeks == 0 { seeks = smoke ? 10 : 60 }
        if tickSeconds == 0 { tickSeconds = smoke ? 3 : 30 }
    }

    func runs(_ id: String) -> Bool { only.isEmpty || only.contains(id) }
}

extension BenchError {
    static let help = BenchError("help")
}
