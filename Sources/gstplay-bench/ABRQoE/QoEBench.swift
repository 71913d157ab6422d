import Foundation
import ProcessProbe
import StreamingQoE
import Synchronization

/// The results file of a QoE benchmark run (`DIR/results.json`): what the report and the plotter
/// (Tests/Bench/plot-abr.py) read. Written once at the end, on the harness's main thread.
struct QoEResultsFile: Codable, Sendable {
    struct Trace: Codable, Sendable {
        var name: String
        var description: String
        /// (seconds, kbit/s) steps.
        var steps: [[Double]]
        var start: Double
        var seconds: Double
    }
    var date: String
    var wallSeconds: Double
    var ladder: [String: Double]
    var traces: [Trace]
    var jobs: [QoEJobResult]
}

/// `gstplay-bench abr-qoe`: runs the jobs (``QoEJob``) `--jobs` at a time on worker threads,
/// then writes the results and the report. Main thread.
enum QoEBench {
    static func main(_ arguments: [String], benchExecutable: String) -> Int32 {
        let options: QoEOptions
        do { options = try QoEOptions(arguments) } catch let error as BenchError where error.description == "help" {
            print(QoEOptions.usage); return 0
        } catch {
            FileHandle.standardError.write(Data("gstplay-bench abr-qoe: \(error)\n\(QoEOptions.usage)\n".utf8)); return 2
        }
        @Sendable func log(_ text: String) { FileHandle.standardError.write(Data("abr-qoe: \(text)\n".utf8)) }
        let ladder: QoELadder
        let traces: [(name: String, description: String, trace: BandwidthTrace)]
        do {
            ladder = try QoELadder(directory: options.hls)
            traces = try loadTraces(options)
            guard FileManager.default.fileExists(atPath: options.server) else { throw BenchError("no server script at \(options.server)") }
        } catch {
            FileHandle.standardError.write(Data("gstplay-bench abr-qoe: \(error)\n".utf8)); return 1
        }
        var planned: [QoEJob] = []
        for run in 1...options.runs {
            for entry in traces.sorted(by: { $0.trace.period > $1.trace.period }) {
                let seconds = options.seconds > 0 ? options.seconds : entry.trace.period
                if seconds > ladder.seconds - 2 { log("warning: \(entry.name) runs \(Int(seconds)) s on a \(Int(ladder.seconds)) s ladder (the stream ends)") }
                for proto in options.protocols {
                    planned.append(QoEJob(traceName: entry.name, trace: entry.trace, traceStart: options.traceStart, seconds: seconds,
                                       proto: proto, run: run, players: ABRChild.players))
                }
            }
        }
        let jobs = planned
        let runner: ProcessRunner
        do { runner = try ProcessRunner(ownExecutable: benchExecutable) } catch { log("\(error)"); return 1 }
        defer { runner.cleanUp() }
        let mediaSeconds = jobs.reduce(0) { $0 + $1.seconds }
        log("\(jobs.count) cells (\(traces.count) traces × \(options.protocols.count) protocols × \(options.runs) runs) × 3 players, "
            + "\(Int(mediaSeconds)) s of media per player, \(options.jobs) cell(s) at a time")
        let started = MonotonicClock.now()
        let before = LoadSnapshot.now()
        let results = Mutex<[QoEJobResult]>([])
        let next = Atomic<Int>(0)
        let finished = DispatchGroup()
        for _ in 0..<min(options.jobs, jobs.count) {
            finished.enter()
            Thread {
                defer { finished.leave() }
                while true {
                    let index = next.add(1, ordering: .relaxed).oldValue
                    guard index < jobs.count else { return }
                    let job = jobs[index]
                    let result = job.execute(ladder: ladder, script: options.server, runner: runner, bench: benchExecutable)
                    let done = results.withLock { $0.append(result); return $0.count }
                    let summary = result.players.map { p in
                        p.failure.map { "\(p.player) FAILED (\($0))" }
                            ?? "\(p.player) \(Markdown.number(p.score.averageMbps, 2)) Mb/s, stall \(Markdown.number(p.score.stallSeconds, 1)) s, QoE \(Markdown.number(p.score.qoe, 1))"
                    }.joined(separator: "; ")
                    log("[\(done)/\(jobs.count)] \(job.traceName) \(job.proto.rawValue) run \(job.run): \(summary)")
                }
            }.start()
        }
        finished.wait()
        let wall = MonotonicClock.now() - started
        let load = QoELoad(before: before, after: LoadSnapshot.now())
        let file = QoEResultsFile(
            date: Report.utc(Date()), wallSeconds: wall,
            ladder: Dictionary(uniqueKeysWithValues: ladder.variants.map { ($0.name, $0.kbps) }),
            traces: traces.map { .init(name: $0.name, description: $0.description, steps: $0.trace.steps.map { [$0.seconds, $0.kbps] },
                                       start: options.traceStart, seconds: options.seconds > 0 ? options.seconds : $0.trace.period) },
            jobs: results.withLock { $0 }.sorted { ($0.trace, $0.proto.rawValue, $0.run) < ($1.trace, $1.proto.rawValue, $1.run) })
        let report = QoEReport(file: file, options: options, ladder: ladder, load: load).markdown()
        do {
            try FileManager.default.createDirectory(atPath: options.out, withIntermediateDirectories: true)
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            try encoder.encode(file).write(to: URL(fileURLWithPath: "\(options.out)/results.json"))
            try report.write(toFile: "\(options.out)/report.md", atomically: true, encoding: .utf8)
            if let section = options.section { try QoEReport.replaceSection(in: section, with: report) }
        } catch {
            log("cannot write the results: \(error)"); return 1
        }
        log("wrote \(options.out)/results.json and report.md\(options.section.map { " and its section in \($0)" } ?? "") in \(Int(wall.rounded())) s")
        let failures = file.jobs.flatMap { job in job.players.compactMap { p in p.failure.map { "\(job.trace) \(job.proto.rawValue) run \(job.run) \(p.player): \($0)" } } }
        let empty = file.jobs.flatMap { job in job.players.filter { $0.failure == nil && $0.score.fragments == 0 }.map { "\(job.trace) \($0.player): no fragment played" } }
        for line in failures + empty { log("FAILED \(line)") }
        return failures.isEmpty && empty.isEmpty ? 0 : 3
    }

    private static func loadTraces(_ options: QoEOptions) throws -> [(name: String, description: String, trace: BandwidthTrace)] {
        let names = try FileManager.default.contentsOfDirectory(atPath: options.traces).filter { $0.hasSuffix(".txt") }.sorted()
        var traces: [(String, String, BandwidthTrace)] = []
        for file in names {
            let name = String(file.dropLast(4))
            guard options.onlyTraces.isEmpty || options.onlyTraces.contains(name) else { continue }
            let text = try String(contentsOfFile: "\(options.traces)/\(file)", encoding: .utf8)
            let trace = try BandwidthTrace(text: text)
            let description = text.split(separator: "\n").first.map { String($0.dropFirst(2).split(separator: "(").first ?? "").trimmingCharacters(in: .whitespaces) } ?? name
            traces.append((name, description, trace))
        }
        guard !traces.isEmpty else { throw BenchError("no traces in \(options.traces)\(options.onlyTraces.isEmpty ? "" : " named \(options.onlyTraces.sorted())")") }
        return traces
    }
}

/// CPU the benchmark added (the harness, its children and servers) and the rest of the machine's.
struct QoELoad: Sendable {
    var wallSeconds: Double
    var ownCPUSeconds: Double
    var foreignCPUSeconds: Double
    var loadAverage: String

    init(before: LoadSnapshot, after: LoadSnapshot) {
        wallSeconds = max(after.time - before.time, 1e-3)
        ownCPUSeconds = after.own - before.own
        foreignCPUSeconds = before.foreign(until: after).cpuSeconds
        loadAverage = ProcFS.read("/proc/loadavg").map { $0.split(separator: " ").prefix(3).joined(separator: " ") } ?? "unknown"
    }
}
