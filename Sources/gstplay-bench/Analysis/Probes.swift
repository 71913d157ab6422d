import Foundation

/// Tiny programs compiled at bench time to price the language runtime by itself.
struct Probe {
    let id: String
    let label: String
    let source: String
    let fileExtension: String
    let compiler: [String]

    /// Reads its own `VmHWM` (the peak of its own address space; `ru_maxrss` of a `posix_spawn`ed
    /// child would include the harness's peak, inherited through vfork + exec) and prints it.
    private static let readPeakC = """
        #include <stdio.h>
        #include <string.h>
        int main(void) {
            char line[256]; FILE *f = fopen("/proc/self/status", "r");
            while (f && fgets(line, sizeof line, f)) if (strncmp(line, "VmHWM:", 6) == 0) fputs(line, stdout);
            return 0;
        }

        """
    private static let readPeakSwift = """
        var line = [CChar](repeating: 0, count: 256)
        if let file = fopen("/proc/self/status", "r") {
            while fgets(&line, 256, file) != nil {
                let text = line.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
                if text.hasPrefix("VmHWM:") { print(text, terminator: "") }
            }
            fclose(file)
        }

        """

    static let all: [Probe] = [
        Probe(id: "c", label: "C", source: readPeakC, fileExtension: "c", compiler: ["cc", "-O2"]),
        Probe(id: "swift", label: "Swift, standard library only", source: "import Glibc\n" + readPeakSwift, fileExtension: "swift", compiler: ["swiftc", "-O"]),
        Probe(id: "swift-static", label: "Swift, standard library only, `-static-stdlib`", source: "import Glibc\n" + readPeakSwift, fileExtension: "swift", compiler: ["swiftc", "-O", "-static-stdlib"]),
        Probe(id: "swift-essentials", label: "Swift + `import FoundationEssentials` (uses `ProcessInfo`)",
              source: "import Glibc\nimport FoundationEssentials\nif ProcessInfo.processInfo.environment.count > 99999 { print(\"x\") }\n" + readPeakSwift, fileExtension: "swift", compiler: ["swiftc", "-O"]),
        Probe(id: "swift-essentials-static", label: "Swift + `import FoundationEssentials`, `-static-stdlib`",
              source: "import Glibc\nimport FoundationEssentials\nif ProcessInfo.processInfo.environment.count > 99999 { print(\"x\") }\n" + readPeakSwift, fileExtension: "swift", compiler: ["swiftc", "-O", "-static-stdlib"]),
        Probe(id: "swift-foundation", label: "Swift + `import Foundation` (uses `ProcessInfo`)",
              source: "import Glibc\nimport Foundation\nif ProcessInfo.processInfo.environment.count > 99999 { print(\"x\") }\n" + readPeakSwift, fileExtension: "swift", compiler: ["swiftc", "-O"]),
        Probe(id: "swift-foundation-static", label: "Swift + `import Foundation`, `-static-stdlib`",
              source: "import Glibc\nimport Foundation\nif ProcessInfo.processInfo.environment.count > 99999 { print(\"x\") }\n" + readPeakSwift, fileExtension: "swift", compiler: ["swiftc", "-O", "-static-stdlib"]),
    ]

    struct Results {
        var rows: [[String]] = []
        /// The probe id of each row.
        var rowIDs: [String] = []
        var medians: [String: Double] = [:]
        /// MiB over the C probe.
        func delta(_ id: String) -> Double? {
            guard let value = medians[id], let c = medians["c"] else { return nil }
            return value - c
        }
    }

    static func measure(_ context: BenchContext) -> Results {
        var results = Results()
        let directory = context.runner.workDirectory + "/probes"
        try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let runs = context.smoke ? 1 : 5
        // The smoke run only checks the mechanism: three probes.
        for probe in all where !context.smoke || ["c", "swift", "swift-foundation"].contains(probe.id) {
            context.log("memory: probe \(probe.id)")
            results.rowIDs.append(probe.id)
            let source = "\(directory)/\(probe.id).\(probe.fileExtension)", binary = "\(directory)/\(probe.id)"
            do { try probe.source.write(toFile: source, atomically: true, encoding: .utf8) } catch {
                results.rows.append([probe.label, "not measured: \(error)", "—", "—", "—"]); continue
            }
            var compiler = probe.compiler
            if compiler[0] == "cc" && BenchContext.onPath("cc") == nil { compiler[0] = "clang" } // the Swift toolchain ships clang
            let compile = context.runner.run(ProcessSpec(executable: compiler[0], arguments: Array(compiler.dropFirst()) + [source, "-o", binary], timeoutSeconds: 180))
            guard compile.succeeded else {
                results.rows.append([probe.label, "not measured: compile failed (\(compile.failureReason ?? "?"))", "—", "—", "—"]); continue
            }
            let runsMade = (0..<runs).map { _ in context.runner.run(ProcessSpec(executable: binary, arguments: [], timeoutSeconds: 30)) }
            let ok = runsMade.filter(\.succeeded)
            let peaks = ok.compactMap { run -> Double? in
                let fields = run.stdout.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" })
                return fields.count > 1 ? Double(fields[1]).map { $0 / 1024 } : nil
            }
            guard let rss = Summary(peaks), let wall = Summary(ok.map(\.wallSeconds)) else {
                results.rows.append([probe.label, "not measured: \(runsMade.first?.failureReason ?? "no run")", "—", "—", "—"]); continue
            }
            results.medians[probe.id] = rss.median
            context.evidence.record("probe.rss.\(probe.id)", rss.median)
            context.evidence.record("probe.wall.\(probe.id)", wall.median * 1000)
            if let cpu = Summary(ok.map(\.cpuSeconds)) { context.evidence.record("probe.cpu.\(probe.id)", cpu.median * 1000) }
            results.rows.append([probe.label, Markdown.number(rss.median, 1), "", Markdown.number(wall.median * 1000, 1),
                                 Summary(ok.map(\.cpuSeconds)).map { Markdown.number($0.median * 1000, 1) } ?? "—"])
        }
        for index in results.rows.indices {
            let id = results.rowIDs[index]
            if let delta = results.delta(id) { results.rows[index][2] = Markdown.signed(delta, 1) } else if results.rows[index][2].isEmpty { results.rows[index][2] = "—" }
        }
        return results
    }
}
