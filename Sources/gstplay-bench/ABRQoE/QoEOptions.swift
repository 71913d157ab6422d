import Foundation

/// `gstplay-bench abr-qoe …`: the command line of the adaptive-streaming QoE benchmark.
struct QoEOptions: Sendable {
    var traces = "Fixtures/traces"
    var hls = ".build-fixtures/hls-qoe/hls"
    var server = "Tests/TestSupport/http_test_server.py"
    var out = ".build-bench/abr"
    /// A markdown file whose `abr-qoe` section (between its markers) is replaced, or appended.
    var section: String?
    var runs = 3
    var jobs = 3
    var protocols: [QoEJob.Streaming] = [.hls, .dash]
    var onlyTraces: Set<String> = []
    /// Seconds per run (0: the trace's period).
    var seconds = 0.0
    var traceStart = 0.0
    var smoke = false

    static let usage = """
        usage: gstplay-bench abr-qoe [--traces DIR] [--hls DIR] [--server SCRIPT] [--out DIR] [--section FILE]
                                     [--runs N] [--jobs N] [--protocols hls,dash] [--only-traces A,B]
                                     [--seconds S] [--trace-start T] [--smoke]

        Plays every trace of DIR (Fixtures/traces/*.txt) with gstplay's buffer-aware ABR, gstplay's
        throughput rule and a bare playbin (its own adaptivedemux heuristic), N runs each, over HLS and
        DASH, each player against a trace-shaped server of its own; the players of one (trace, protocol,
        run) play at once, --jobs such cells at a time. Writes DIR/results.json (the plotter's input,
        Tests/Bench/plot-abr.py) and DIR/report.md, and with --section replaces the report's section in
        FILE (docs/BENCHMARKS.md).
          --hls DIR      the ladder's hls directory (default .build-fixtures/hls-qoe/hls: make abr-fixtures, 126 s)
          --seconds S    seconds per run (default: each trace's period)
          --smoke        one 20 s slice of step-down (from 20 s in: the step comes 10 s into the run),
                         1 run, HLS only; exits 3 when a player did not play (CI: make bench-smoke)

        Exit status: 0 when the report was written; 1 on a setup error; 2 on bad arguments;
        3 when a player run failed (the report is still written).
        """

    init(_ arguments: [String]) throws {
        var cursor = ArgumentCursor(arguments)
        let given = Set(arguments.filter { $0.hasPrefix("--") })
        while let flag = cursor.next() {
            switch flag {
            case "--traces": traces = try cursor.value()
            case "--hls": hls = try cursor.value()
            case "--server": server = try cursor.value()
            case "--out": out = try cursor.value()
            case "--section": section = try cursor.value()
            case "--runs": runs = max(1, try cursor.wholeNumber())
            case "--jobs": jobs = max(1, try cursor.wholeNumber())
            case "--seconds": seconds = try cursor.number()
            case "--trace-start": traceStart = try cursor.number()
            case "--smoke": smoke = true
            case "--only-traces": onlyTraces = Set(try cursor.value().split(separator: ",").map(String.init))
            case "--protocols":
                let words = try cursor.value().split(separator: ",").map(String.init)
                protocols = try words.map { word in
                    guard let proto = QoEJob.Streaming(rawValue: word) else { throw BenchError("--protocols takes hls and/or dash, not '\(word)'") }
                    return proto
                }
            case "-h", "--help": throw BenchError.help
            default: throw BenchError("unknown argument '\(flag)'")
            }
        }
        if smoke {   // the smoke slice, unless asked otherwise
            if !given.contains("--runs") { runs = 1 }
            if !given.contains("--jobs") { jobs = 1 }
            if !given.contains("--protocols") { protocols = [.hls] }
            if !given.contains("--only-traces") { onlyTraces = ["step-down"] }
            if !given.contains("--seconds") { seconds = 20 }
            if !given.contains("--trace-start") { traceStart = 20 }
        }
    }
}
