import Foundation
import ProcessProbe

// gstplay-bench: `make bench` / `make bench-smoke` (see BenchOptions.usage), and the measured
// child programs (`gstplay-bench child …`, see ChildCommand).
//
// Exit status: 0 when every case ran and the report was written (targets met or not; a failing
// contender is recorded in the report, not fatal); 1 on a setup error (bad arguments, missing
// clips); 3 when one of the harness's own child programs failed (the report is still written).

let arguments = Array(CommandLine.arguments.dropFirst())
if arguments.first == "child" {
    exit(ChildCommand.run(Array(arguments.dropFirst())))
}
// The adaptive-streaming QoE benchmark (`make bench-abr`), a command of its own.
if arguments.first == "abr-qoe" {
    exit(QoEBench.main(Array(arguments.dropFirst()), benchExecutable: ProcessProbe.current.executable
        ?? URL(fileURLWithPath: CommandLine.arguments[0]).standardizedFileURL.path))
}

func fail(_ message: String, status: Int32 = 1) -> Never {
    FileHandle.standardError.write(Data("gstplay-bench: \(message)\n".utf8))
    exit(status)
}

let options: BenchOptions
do {
    options = try BenchOptions(arguments)
} catch let error as BenchError where error.description == "help" {
    print(BenchOptions.usage)
    exit(0)
} catch {
    fail("\(error)\n\(BenchOptions.usage)", status: 2)
}

let startedAt = Date()
let started = MonotonicClock.now()
let benchExecutable = ProcessProbe.current.executable
    ?? URL(fileURLWithPath: CommandLine.arguments[0]).standardizedFileURL.path
let binDirectory = URL(fileURLWithPath: benchExecutable).deletingLastPathComponent().path
let gstplay = URL(fileURLWithPath: options.gstplay ?? "\(binDirectory)/gstplay").standardizedFileURL.path
let clipDirectory = URL(fileURLWithPath: options.clips).standardizedFileURL.path
var clips: [String] = []
for name in ["bench-short.mp4", "bench-10s.mp4", "bench-30s.mp4"] {
    let path = "\(clipDirectory)/\(name)"
    guard FileManager.default.fileExists(atPath: path) else {
        fail("missing clip \(path): run `Fixtures/make-fixtures.sh --bench \(options.clips)` first")
    }
    clips.append(path)
}

let runner: ProcessRunner
do { runner = try ProcessRunner(ownExecutable: benchExecutable) } catch { fail("\(error)") }
let context = BenchContext(
    options: options, runner: runner, benchExecutable: benchExecutable, gstplay: gstplay,
    shortClip: clips[0], tenSecondClip: clips[1], thirtySecondClip: clips[2],
    mpvPath: BenchContext.onPath("mpv"),
    extraGstplays: options.also.map { ($0.label, URL(fileURLWithPath: $0.path).standardizedFileURL.path) })

context.log("\(options.smoke ? "smoke run" : "full run"): gstplay = \(gstplay), clips in \(clipDirectory)")
if context.mpvPath == nil { context.log("mpv not found: its rows are marked not run (`make setup-bench` installs it)") }
let machine = MachineInfo.gather(context)

let cases: [(String, (BenchContext) -> CaseOutcome)] = [
    ("startup", StartupCase.run), ("realtime", RealtimeCase.run), ("throughput", ThroughputCase.run),
    ("memory", MemoryCase.run), ("footprint", FootprintCase.run), ("first-frame", FirstFrameCase.run), ("seek", SeekCase.run), ("tick", TickCase.run), ("concurrency", ConcurrencyCase.run),
    ("abr", ABRCase.run), ("cache", CacheCase.run),
    ("thumbnail", ThumbnailCase.run),
    ("abr-live", ABRLiveCase.run),
]
var outcomes: [CaseOutcome] = []
let runLoad = LoadSnapshot.now()
for (id, body) in cases where options.runs(id) {
    let before = LoadSnapshot.now()
    var outcome = body(context)
    let load = before.foreign(until: LoadSnapshot.now())
    context.evidence.record("load.\(id)", load.percentOfOneCPU)
    if !outcome.sections.isEmpty { outcome.sections[0].body += "\n" + load.sentence + "\n" }
    outcomes.append(outcome)
    context.log("\(id) done in \(Int(load.wallSeconds.rounded())) s (other processes: \(Int(load.percentOfOneCPU.rounded())) % of a CPU)")
}
let wholeRunLoad = runLoad.foreign(until: LoadSnapshot.now())

let allContenders = [context.gstplayCLI, context.gstPlay, context.gstLaunch, context.mpv, context.swiftPlaybin,
                     context.swiftPlaybinMinimalFlags, context.backendDefault, context.backendNoPitch, context.backendNoStats, context.backendQuiet] + context.extraGstplayContenders
    + ThumbnailCase.contenders(context)
let report = Report(context: context, machine: machine, startedAt: startedAt, elapsedSeconds: MonotonicClock.now() - started,
                    outcomes: outcomes, contenders: allContenders, load: wholeRunLoad,
                    loadAverageAtEnd: ProcFS.read("/proc/loadavg").map { $0.split(separator: " ").prefix(3).joined(separator: " ") } ?? "unknown")
var markdown = report.markdown()
let ownFailures = runner.failedOwnRuns
if !ownFailures.isEmpty {
    markdown += "\n## Harness failures\n\n" + ownFailures.map { "- \($0)\n" }.joined()
}
// The QoE section (`make bench-abr`) and its hand-written reading are not this run's: keep them as they stand.
if let kept = QoEReport.section(inFile: options.output) { markdown += "\n" + kept }
let outputURL = URL(fileURLWithPath: options.output)
do {
    try FileManager.default.createDirectory(at: outputURL.deletingLastPathComponent(), withIntermediateDirectories: true)
    try markdown.write(to: outputURL, atomically: true, encoding: .utf8)
} catch {
    fail("cannot write \(options.output): \(error)")
}
runner.cleanUp()

for check in outcomes.flatMap(\.targets) {
    let status: String
    switch check.status {
    case .met: status = "met    "
    case .notMet: status = "NOT MET"
    case .notMeasured: status = "n/a    "
    }
    context.log("\(status) \(check.target): \(check.measured)")
}
context.log("wrote \(options.output) in \(Int((MonotonicClock.now() - started).rounded())) s")
if !ownFailures.isEmpty {
    fail("\(ownFailures.count) harness child run(s) failed (see the report):\n" + ownFailures.joined(separator: "\n"), status: 3)
}
exit(0)
