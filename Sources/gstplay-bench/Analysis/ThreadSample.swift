import Foundation
import Glibc
import ProcessProbe

/// CPU time of each thread of a running process so far: `/proc/PID/task/TID/comm` (the name,
/// GStreamer names its streaming threads after the pad, e.g. `qtdemux0:sink`) and the first
/// field of `/proc/PID/task/TID/schedstat` (nanoseconds on a CPU).
struct ThreadSample: Sendable {
    enum Group: String, CaseIterable, Sendable {
        case main = "main thread"
        case loop = "Backend loop thread (`gstplay-loop`)"
        case streaming = "GStreamer streaming threads (named `element:pad`)"
        case other = "other threads"
    }

    struct Thread: Sendable {
        let name: String
        let nanoseconds: UInt64
        let group: Group
    }

    var threads: [Thread] = []

    init?(pid: pid_t) {
        let probe = ProcessProbe(pid: pid)
        guard let tids = probe.threadIDs else { return nil }
        for tid in tids {
            guard let ns = probe.cpuNanoseconds(thread: tid) else { continue }
            let name = probe.threadName(tid) ?? "?"
            let group: Group
            if tid == "\(pid)" { group = .main } else if name == "gstplay-loop" { group = .loop } else if name.contains(":") { group = .streaming } else { group = .other }
            threads.append(Thread(name: name, nanoseconds: ns, group: group))
        }
        guard !threads.isEmpty else { return nil }
    }

    func milliseconds(_ group: Group) -> Double {
        Double(threads.filter { $0.group == group }.reduce(0) { $0 + $1.nanoseconds }) / 1e6
    }

    var totalMilliseconds: Double { Double(threads.reduce(0) { $0 + $1.nanoseconds }) / 1e6 }

    /// "name 12.3" for the threads outside the streaming group, largest first.
    var nonStreamingList: String {
        threads.filter { $0.group != .streaming }.sorted { $0.nanoseconds > $1.nanoseconds }
            .map { "`\($0.name)` \(Markdown.number(Double($0.nanoseconds) / 1e6, 1))" }.joined(separator: ", ")
    }
}
