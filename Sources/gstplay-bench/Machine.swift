import CGStreamer
import Foundation
import ProcessProbe

/// Facts about the machine and the tools, gathered at the start of a run.
struct MachineInfo: Sendable {
    var processors = 0
    var cpuModel = "unknown"
    var memory = "unknown"
    var kernel = "unknown"
    var os = "unknown"
    var gstreamer = "unknown"
    var swift = "unknown"
    var mpv = "not installed"
    var loadAverage = "unknown"

    static func gather(_ context: BenchContext) -> MachineInfo {
        var info = MachineInfo()
        info.processors = Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))
        if let cpu = ProcFS.read("/proc/cpuinfo"),
           let line = cpu.split(separator: "\n").first(where: { $0.hasPrefix("model name") }),
           let colon = line.firstIndex(of: ":") {
            info.cpuModel = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        if let meminfo = ProcFS.read("/proc/meminfo"),
           let line = meminfo.split(separator: "\n").first(where: { $0.hasPrefix("MemTotal:") }),
           let kib = Double(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "") {
            info.memory = String(format: "%.1f GiB", kib / 1024 / 1024)
        }
        var names = utsname()
        if uname(&names) == 0 {
            info.kernel = withUnsafeBytes(of: names.release) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        }
        if let release = try? String(contentsOfFile: "/etc/os-release", encoding: .utf8),
           let line = release.split(separator: "\n").first(where: { $0.hasPrefix("PRETTY_NAME=") }) {
            info.os = line.dropFirst("PRETTY_NAME=".count).trimmingCharacters(in: CharacterSet(charactersIn: "\""))
        }
        var major: guint = 0, minor: guint = 0, micro: guint = 0, nano: guint = 0
        gst_version(&major, &minor, &micro, &nano)
        info.gstreamer = "\(major).\(minor).\(micro)" + (nano > 0 ? ".\(nano)" : "")
        let swift = context.runner.run(ProcessSpec(executable: "swift", arguments: ["--version"], timeoutSeconds: 30))
        if swift.succeeded, let line = (swift.stdout + swift.stderr).split(separator: "\n").first(where: { $0.contains("Swift version") }) {
            info.swift = line.trimmingCharacters(in: .whitespaces)
        }
        if context.mpvPath != nil {
            let mpv = context.runner.run(ProcessSpec(executable: "mpv", arguments: ["--no-config", "--version"], timeoutSeconds: 30))
            if let line = mpv.stdout.split(separator: "\n").first { info.mpv = line.split(separator: " ").prefix(2).joined(separator: " ") }
        }
        if let load = ProcFS.read("/proc/loadavg") {
            info.loadAverage = load.split(separator: " ").prefix(3).joined(separator: " ")
        }
        return info
    }

    /// The build configuration a binary path suggests (SwiftPM puts products in …/debug or …/release).
    static func buildKind(_ path: String) -> String {
        let resolved = (try? FileManager.default.destinationOfSymbolicLink(atPath: path)) ?? path
        for candidate in [resolved, path] {
            if candidate.contains("/release/") || candidate.contains("-release/") { return "release build" }
            if candidate.contains("/debug/") || candidate.contains("-debug/") { return "debug build" }
        }
        return "build configuration unknown"
    }

    func markdown(context: BenchContext) -> String {
        Markdown.table(["", ""], [
            ["CPU", "\(cpuModel), \(processors) online processors (`nproc`)"],
            ["memory", memory],
            ["system", "\(os), Linux \(kernel); load average at start \(loadAverage)"],
            ["GStreamer", gstreamer],
            ["Swift", swift],
            ["mpv", mpv],
            ["gstplay", "`\(context.gstplay)` (\(Self.buildKind(context.gstplay)))"],
            ["harness", "`\(context.benchExecutable)` (\(Self.buildKind(context.benchExecutable)))"],
        ])
    }
}
