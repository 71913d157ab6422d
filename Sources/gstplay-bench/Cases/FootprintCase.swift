import Foundation
import Glibc
import ProcessProbe

/// The memory floor, page by page: `/proc/PID/smaps` of gstplay and gst-play-1.0 summed per group
/// of mappings (``Footprint``), for `--version`, a headless local play, and a play with each of
/// gstplay's doors open (the mpv socket, the web remote, MPRIS on a private session bus).
///
/// A `--version` run lives a few milliseconds, too short to sample from outside: its stdout is a
/// one-page pipe the harness filled beforehand, so the program blocks on its first write of the
/// version text (after its work, at its exit flush at the latest) and is read there, then the pipe
/// is drained and the program ends. A play is sampled every 150 ms over its first seconds and the
/// sample with the largest `Rss` is kept (then the program is killed).
enum FootprintCase {
    /// One measured program: how it is started and when it is read.
    struct Scenario {
        enum Moment { case blockedOnOutput, playing }
        let id: String
        let label: String
        let spec: ProcessSpec
        let moment: Moment
        var unavailable: String?
    }

    static func run(_ context: BenchContext) -> CaseOutcome {
        let title = "Memory by mapping (smaps): --version, headless play, doors"
        let runs = context.smoke ? 1 : 3
        let window = context.smoke ? 1.0 : 2.5
        let bus = PrivateSessionBus.start()
        defer { bus?.stop() }
        let scenarios = scenarios(context, bus: bus)
        var samples: [String: [Footprint]] = [:]
        var failures: [String: String] = [:]
        for round in 0..<runs {
            context.log("footprint: round \(round + 1)/\(runs)")
            for step in scenarios.indices {
                let scenario = scenarios[(step + round) % scenarios.count]
                if let why = scenario.unavailable { failures[scenario.id] = why; continue }
                let result = scenario.moment == .blockedOnOutput
                    ? sampleBlockedOnOutput(scenario.spec, runner: context.runner)
                    : samplePlaying(scenario.spec, window: window, runner: context.runner)
                switch result {
                case .success(let footprint): samples[scenario.id, default: []].append(footprint)
                case .failure(let error): failures[scenario.id] = error.description
                }
            }
        }
        // Per program, the run whose total Rss is the median of its runs.
        let chosen: [(Scenario, Footprint)] = scenarios.compactMap { scenario in
            guard let runs = samples[scenario.id], !runs.isEmpty else { return nil }
            return (scenario, runs.sorted { $0.total.rss < $1.total.rss }[runs.count / 2])
        }

        var body = """
            `/proc/PID/smaps` of each program, summed per group of mappings; each cell is **Rss / Pss / Private** in MiB \
            (Rss counts a shared library's resident pages fully, Pss divides them by the processes mapping them, Private \
            only pages no other process maps). `--version` is read while the program is blocked writing its version text \
            (its stdout is a full one-page pipe); a play (`\(context.tenSecondClip.split(separator: "/").last ?? "")`, fake \
            sinks, real time) is sampled every 150 ms over its first \(Markdown.number(window, 1)) s and its largest sample \
            kept; the run with the median total of \(runs) is shown. The last rows: `VmHWM` (peak RSS) when the sample was taken.

            """ + "\n"
        var rows: [[String]] = Footprint.Group.allCases.map { group in
            [group.rawValue] + chosen.map { cell($0.1.groups[group] ?? Footprint.Sizes()) }
        }
        rows.append(["**total**"] + chosen.map { "**\(cell($0.1.total))**" })
        rows.append(["peak RSS (`VmHWM`)"] + chosen.map { mib($0.1.peakKiB) })
        body += Markdown.table(["MiB: Rss / Pss / Private"] + chosen.map { $0.0.label }, rows)
        for scenario in scenarios {
            if let why = failures[scenario.id], samples[scenario.id] == nil { body += "\n- \(scenario.label): **not sampled** — \(why)\n" }
        }
        body += "\nCommand lines: " + scenarios.filter { $0.unavailable == nil }
            .map { "\($0.label): `\($0.spec.commandLine)`" }.joined(separator: "; ") + ".\n"

        let byID = Dictionary(chosen.map { ($0.0.id, $0.1) }, uniquingKeysWith: { first, _ in first })
        for (subject, reference, what) in [("play", "gst-play", "headless local play"), ("version", "gst-play-version", "`--version`")] {
            guard let ours = byID[subject], let theirs = byID[reference] else { continue }
            body += "\n" + gapSentence(ours, theirs, what: what)
            context.evidence.record("footprint.\(subject).gap", Double(ours.total.rss - theirs.total.rss) / 1024)
        }
        if let play = byID["play"] {
            let top = play.files.prefix(12).map { "`\($0.name)` \(mib($0.sizes.rss)) (private \(mib($0.sizes.privateKiB)))" }
            body += "\nLargest files mapped by gstplay's headless play (Rss MiB): \(top.joined(separator: ", ")).\n"
        }
        for (door, id) in [("the mpv socket", "ipc"), ("the web remote", "remote"), ("MPRIS", "mpris")] {
            guard let open = byID[id], let play = byID["play"] else { continue }
            body += "\nOpening \(door) adds \(Markdown.signed(Double(open.total.rss - play.total.rss) / 1024, 1)) MiB Rss "
                + "(door libraries \(mib(open.groups[.doors]?.rss ?? 0)) MiB mapped, against \(mib(play.groups[.doors]?.rss ?? 0)) without it)."
        }
        body += "\n"
        return CaseOutcome(sections: [ReportSection(title: title, body: body)], targets: [])
    }

    /// The programs: gstplay and gst-play-1.0 `--version`, both playing headless, and gstplay with each door open.
    static func scenarios(_ context: BenchContext, bus: PrivateSessionBus?) -> [Scenario] {
        let workload = Workload(clip: context.tenSecondClip, sync: true, timeoutSeconds: 60)
        let gstplay = context.gstplayCLI, gstPlay = context.gstPlay
        func gstplayPlay(_ extra: [String], environment: [String: String] = [:]) -> ProcessSpec {
            var spec = gstplay.command(workload)
            spec.arguments.insert(contentsOf: extra, at: 0)
            spec.extraEnvironment.merge(environment) { $1 }
            return spec
        }
        let socket = context.runner.workDirectory + "/footprint-ipc.sock"
        var list = [
            Scenario(id: "version", label: "gstplay --version", spec: ProcessSpec(executable: context.gstplay, arguments: ["--version"], timeoutSeconds: 30),
                     moment: .blockedOnOutput, unavailable: gstplay.unavailable),
            Scenario(id: "gst-play-version", label: "gst-play-1.0 --version", spec: ProcessSpec(executable: "gst-play-1.0", arguments: ["--version"], timeoutSeconds: 30),
                     moment: .blockedOnOutput, unavailable: gstPlay.unavailable),
            Scenario(id: "play", label: "gstplay, local play", spec: gstplayPlay([]), moment: .playing, unavailable: gstplay.unavailable),
            Scenario(id: "gst-play", label: "gst-play-1.0, local play", spec: gstPlay.command(workload), moment: .playing, unavailable: gstPlay.unavailable),
            Scenario(id: "ipc", label: "gstplay --input-ipc-server", spec: gstplayPlay(["--input-ipc-server", socket]),
                     moment: .playing, unavailable: gstplay.unavailable),
            Scenario(id: "remote", label: "gstplay --remote", spec: gstplayPlay(["--remote=0"]), moment: .playing, unavailable: gstplay.unavailable),
            Scenario(id: "mpris", label: "gstplay --mpris", spec: gstplayPlay(["--mpris"], environment: ["DBUS_SESSION_BUS_ADDRESS": bus?.address ?? ""]),
                     moment: .playing, unavailable: gstplay.unavailable ?? (bus == nil ? "no dbus-daemon to start a private session bus (Debian: dbus)" : nil)),
        ]
        for extra in context.extraGstplayContenders {
            list.append(Scenario(id: extra.id, label: "\(extra.label), local play", spec: extra.command(workload), moment: .playing, unavailable: extra.unavailable))
        }
        return list
    }

    /// Samples `spec` every 150 ms for `window` seconds (after the first 0.3 s) and keeps the largest sample.
    static func samplePlaying(_ spec: ProcessSpec, window: Double, runner: ProcessRunner) -> Result<Footprint, BenchError> {
        switch runner.spawn(spec) {
        case .failure(let failure):
            return .failure(BenchError(failure.result.failureReason ?? "could not start"))
        case .success(let process):
            usleep(300_000)
            var largest: Footprint?
            let end = MonotonicClock.now() + window
            repeat {
                if let sample = Footprint(pid: process.pid), sample.total.rss > (largest?.total.rss ?? -1) { largest = sample }
                usleep(150_000)
            } while MonotonicClock.now() < end
            let stillRunning = Footprint(pid: process.pid) != nil
            process.send(SIGKILL)
            let result = process.wait()
            guard let largest, stillRunning else {
                return .failure(BenchError("exited before the window ended: \(result.failureReason ?? "exit status 0")"))
            }
            return .success(largest)
        }
    }

    /// Runs `spec` with a full one-page pipe as its stdout, samples it once it blocks writing to it,
    /// then drains the pipe and waits for it.
    static func sampleBlockedOnOutput(_ spec: ProcessSpec, runner: ProcessRunner) -> Result<Footprint, BenchError> {
        var ends: [Int32] = [-1, -1]
        guard closeOnExecPipe(&ends) else { return .failure(BenchError("pipe: \(String(cString: strerror(errno)))")) }
        let (readEnd, writeEnd) = (ends[0], ends[1])
        defer { close(readEnd) }
        fillPipe(writeEnd)
        var spec = spec
        spec.standardOutput = writeEnd
        let spawned = runner.spawn(spec)
        close(writeEnd)
        guard case .success(let process) = spawned else {
            if case .failure(let failure) = spawned { return .failure(BenchError(failure.result.failureReason ?? "could not start")) }
            return .failure(BenchError("could not start"))
        }
        let probe = ProcessProbe(pid: process.pid)
        let deadline = MonotonicClock.now() + spec.timeoutSeconds
        var sample: Footprint?
        while MonotonicClock.now() < deadline {
            // Any thread: an async `main` writes from Swift's cooperative pool.
            guard let threads = probe.threadIDs, !threads.isEmpty else { break } // gone
            if threads.contains(where: { probe.waitChannel(thread: $0)?.contains("pipe_write") == true }) {
                sample = Footprint(pid: process.pid)
                break
            }
            usleep(1000)
        }
        var buffer = [UInt8](repeating: 0, count: 65536)
        while read(readEnd, &buffer, buffer.count) > 0 {}
        let result = process.wait()
        guard let sample else { return .failure(BenchError("never blocked on its output: \(result.failureReason ?? "exit status 0")")) }
        guard result.succeeded else { return .failure(BenchError(result.failureReason ?? "failed")) }
        return .success(sample)
    }

    /// Shrinks the pipe behind `descriptor` to one page and fills it, so the next write blocks.
    private static func fillPipe(_ descriptor: Int32) {
        let setPipeSize: Int32 = 1031 // F_SETPIPE_SZ (Linux), not exported by Swift's Glibc module
        _ = fcntl(descriptor, setPipeSize, 4096)
        let flags = fcntl(descriptor, F_GETFL)
        _ = fcntl(descriptor, F_SETFL, flags | O_NONBLOCK)
        let page = [UInt8](repeating: UInt8(ascii: "."), count: 4096)
        while write(descriptor, page, page.count) > 0 {}
        // Blocking again: the flag belongs to the open pipe, which the child shares.
        _ = fcntl(descriptor, F_SETFL, flags)
    }

    private static func cell(_ sizes: Footprint.Sizes) -> String {
        "\(mib(sizes.rss)) / \(mib(sizes.pss)) / \(mib(sizes.privateKiB))"
    }

    private static func mib(_ kib: Int) -> String { Markdown.number(Double(kib) / 1024, 1) }

    /// "gstplay holds +X MiB more …: group +a, group +b, …" (the groups that differ by ≥ 0.1 MiB, largest first).
    static func gapSentence(_ ours: Footprint, _ theirs: Footprint, what: String) -> String {
        let deltas = Footprint.Group.allCases.map { group in
            (group, Double((ours.groups[group]?.rss ?? 0) - (theirs.groups[group]?.rss ?? 0)) / 1024)
        }.filter { abs($0.1) >= 0.1 }.sorted { $0.1 > $1.1 }
        let total = Double(ours.total.rss - theirs.total.rss) / 1024
        return "\(what): gstplay's Rss is \(Markdown.signed(total, 1)) MiB against gst-play-1.0's (private "
            + "\(Markdown.signed(Double(ours.total.privateKiB - theirs.total.privateKiB) / 1024, 1)) MiB); by group: "
            + deltas.map { "\($0.0.rawValue) \(Markdown.signed($0.1, 1))" }.joined(separator: ", ") + ".\n"
    }
}

/// A `dbus-daemon --session` of the harness's own, for the MPRIS row (there is often no session bus
/// where the bench runs); stopped at the end of the case.
final class PrivateSessionBus: Sendable {
    let address: String
    private let pid: pid_t

    private init(address: String, pid: pid_t) {
        self.address = address
        self.pid = pid
    }

    /// Starts one (`--print-address` on a pipe, `--fork`: the daemon reports its pid); nil when
    /// there is no dbus-daemon or it did not start.
    static func start() -> PrivateSessionBus? {
        guard let daemon = BenchContext.onPath("dbus-daemon") else { return nil }
        let process = Process()
        let output = Pipe()
        process.executableURL = URL(fileURLWithPath: daemon)
        process.arguments = ["--session", "--fork", "--print-address=1", "--print-pid=1"]
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return nil }
        // Two lines, not to EOF: the daemon keeps the pipe open. (No `waitUntilExit`: it does
        // not return for the forking parent here; the zombie goes with the harness.)
        var text = Data()
        while text.filter({ $0 == UInt8(ascii: "\n") }).count < 2 {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            text.append(chunk)
        }
        let lines = String(decoding: text, as: UTF8.self).split(separator: "\n").map(String.init)
        guard lines.count >= 2, lines[0].hasPrefix("unix:"), let pid = pid_t(lines[1]) else { return nil }
        return PrivateSessionBus(address: lines[0], pid: pid)
    }

    func stop() { kill(pid, SIGTERM) }
}

/// `pipe(2)` with both ends close-on-exec (Swift's Glibc module does not declare `pipe2`): the
/// children get only the end a spawn hands them with `dup2`. False when `pipe` fails.
func closeOnExecPipe(_ ends: inout [Int32]) -> Bool {
    guard pipe(&ends) == 0 else { return false }
    for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
    return true
}
