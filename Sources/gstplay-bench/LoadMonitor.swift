import Glibc
import ProcessProbe

/// How busy the rest of the machine was: CPU time of all processes (`/proc/stat`) minus the
/// harness's own and its children's (`getrusage`). Other engineers' builds and tests share this
/// machine; a case measured under foreign load reads noisier, and the report says so.
struct LoadSnapshot: Sendable {
    let time: Double
    /// Busy CPU seconds of the whole machine (user, nice, system, irq, softirq).
    let busy: Double
    /// CPU seconds stolen by the hypervisor.
    let steal: Double
    /// This process and its reaped children, user + sys.
    let own: Double

    static func now() -> LoadSnapshot {
        let ticks = Double(sysconf(Int32(_SC_CLK_TCK)))
        var busy = 0.0, steal = 0.0
        if let stat = ProcFS.read("/proc/stat"), let line = stat.split(separator: "\n").first(where: { $0.hasPrefix("cpu ") }) {
            let fields = line.split(separator: " ").dropFirst().compactMap { Double($0) }
            if fields.count >= 8 {
                busy = (fields[0] + fields[1] + fields[2] + fields[5] + fields[6]) / ticks
                steal = fields[7] / ticks
            }
        }
        var mine = rusage(), children = rusage()
        getrusage(RUSAGE_SELF.rawValue, &mine)
        getrusage(RUSAGE_CHILDREN.rawValue, &children)
        let own = mine.ru_utime.seconds + mine.ru_stime.seconds + children.ru_utime.seconds + children.ru_stime.seconds
        return LoadSnapshot(time: MonotonicClock.now(), busy: busy, steal: steal, own: own)
    }

    /// Foreign load between `self` and `later`.
    func foreign(until later: LoadSnapshot) -> ForeignLoad {
        let wall = max(later.time - time, 1e-3)
        let foreign = max(0, (later.busy - busy) - (later.own - own))
        return ForeignLoad(wallSeconds: wall, cpuSeconds: foreign, stealSeconds: max(0, later.steal - steal))
    }
}

/// CPU used by everything but the harness and its children over a span.
struct ForeignLoad: Sendable {
    let wallSeconds: Double
    let cpuSeconds: Double
    let stealSeconds: Double

    /// As a share of one CPU (100 % = one core fully busy).
    var percentOfOneCPU: Double { cpuSeconds / wallSeconds * 100 }

    var sentence: String {
        "Other processes on the machine used \(Markdown.number(cpuSeconds, 1)) CPU s during this case (\(Markdown.number(percentOfOneCPU, 0)) % of one CPU on average"
            + (stealSeconds > 0.05 ? "; hypervisor steal \(Markdown.number(stealSeconds, 1)) s" : "") + ")."
    }
}
