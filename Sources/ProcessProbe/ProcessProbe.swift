import Glibc

/// Figures of one process from `/proc/<pid>` (Linux): threads, open descriptors, resident
/// memory and its mappings. Every read goes through ``ProcFS`` (`read(2)` to EOF).
///
/// Used by the tests (leak and soak checks on this process or a `gstplay` child) and by
/// `gstplay-bench` (memory and CPU by thread of the programs it measures). Any thread; a
/// probe holds only the pid, every property reads `/proc` afresh.
public struct ProcessProbe: Sendable {
    /// `self`, or a process id in decimal.
    public let pid: String

    /// This process (`/proc/self`).
    public static let current = ProcessProbe(pid: "self")

    /// The process with id `pid`.
    public init(pid: pid_t) { self.pid = String(pid) }

    /// The process named by `pid` as it appears under `/proc` (`"self"` or a decimal id).
    public init(pid: String) { self.pid = pid }

    /// True when a sanitizer runtime (`--sanitize=address|thread`) is linked into this process:
    /// RSS then counts shadow memory and quarantine, so bounds on it mean nothing.
    public static let underSanitizer = dlsym(nil, "__asan_init") != nil || dlsym(nil, "__tsan_init") != nil

    /// The kernel id of the calling thread (`gettid()`, read from the `/proc/thread-self` link,
    /// as Glibc's `gettid` is not visible to Swift); the main thread's id is the process id.
    public static var currentThreadID: pid_t {
        ProcFS.link("/proc/thread-self").flatMap { $0.split(separator: "/").last }.flatMap { pid_t($0) } ?? -1
    }

    /// Resident set size in KiB (`VmRSS` in `status`); nil when the process is gone.
    public var rssKiB: Int? { ProcFS.statusField("VmRSS", pid: pid) }

    /// Peak resident set size in KiB (`VmHWM` in `status`).
    public var peakRSSKiB: Int? { ProcFS.statusField("VmHWM", pid: pid) }

    /// Number of threads (entries of `task/`).
    public var threadCount: Int? { threadIDs?.count }

    /// Number of open descriptors (entries of `fd/`).
    public var descriptorCount: Int? { ProcFS.entries("/proc/\(pid)/fd")?.count }

    /// Thread ids (entries of `task/`), unsorted.
    public var threadIDs: [String]? { ProcFS.entries("/proc/\(pid)/task") }

    /// The name of thread `tid` (`task/<tid>/comm`, at most 15 bytes, e.g. `gstplay-loop`).
    public func threadName(_ tid: String) -> String? {
        ProcFS.read("/proc/\(pid)/task/\(tid)/comm").map { String($0.split(separator: "\n").first ?? "") }
    }

    /// The kernel function thread `tid` sleeps in (`task/<tid>/wchan`), e.g. `wait_for_partner`
    /// for an `open()` of a FIFO that has no writer yet; nil when unreadable, "0" when running.
    public func waitChannel(thread tid: String) -> String? {
        ProcFS.read("/proc/\(pid)/task/\(tid)/wchan").map { String($0.split(separator: "\n").first ?? "") }
    }

    /// Nanoseconds thread `tid` has spent on a CPU (first field of `task/<tid>/schedstat`).
    public func cpuNanoseconds(thread tid: String) -> UInt64? {
        ProcFS.read("/proc/\(pid)/task/\(tid)/schedstat")?.split(separator: " ").first.flatMap { UInt64($0) }
    }

    /// Where descriptor `fd` points (`fd/<n>` link), e.g. `/dev/null` or `pipe:[1234]`.
    public func descriptorTarget(_ fd: Int32) -> String? { ProcFS.link("/proc/\(pid)/fd/\(fd)") }

    /// The scheduler state letter from `stat` (`R`, `S`, `T` when stopped, `Z`, …).
    public var state: Character? {
        guard let stat = ProcFS.read("/proc/\(pid)/stat"), let close = stat.lastIndex(of: ")"),
              let after = stat.index(close, offsetBy: 2, limitedBy: stat.endIndex), after < stat.endIndex else { return nil }
        return stat[after]
    }

    /// The executable's path (`exe` link).
    public var executable: String? { ProcFS.link("/proc/\(pid)/exe") }

    /// One mapping of `smaps`: the mapped path (`[heap]`, `[stack]`, empty for anonymous
    /// memory) and its resident size.
    public struct Mapping: Sendable, Equatable {
        /// The pathname column of the mapping's header line.
        public var path: String
        /// Its `Rss:` in KiB.
        public var rssKiB: Int
        /// Its `Pss:` in KiB: resident pages, each divided by the number of processes mapping it.
        public var pssKiB = 0
        /// Its `Private_Clean:` + `Private_Dirty:` in KiB: resident pages no other process maps.
        public var privateKiB = 0
    }

    /// Every mapping of `smaps` with its resident, proportional and private sizes; nil when
    /// unreadable or empty.
    public var mappings: [Mapping]? {
        guard let smaps = ProcFS.read("/proc/\(pid)/smaps"), !smaps.isEmpty else { return nil }
        var result: [Mapping] = []
        for line in smaps.split(separator: "\n", omittingEmptySubsequences: true) {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            guard let first = fields.first else { continue }
            if first.contains("-") && !first.hasSuffix(":") {
                result.append(Mapping(path: fields.count > 5 ? fields[5...].joined(separator: " ") : "", rssKiB: 0))
            } else if fields.count > 1, !result.isEmpty, let value = Int(fields[1]) {
                switch first {
                case "Rss:": result[result.count - 1].rssKiB += value
                case "Pss:": result[result.count - 1].pssKiB += value
                case "Private_Clean:", "Private_Dirty:": result[result.count - 1].privateKiB += value
                default: break
                }
            }
        }
        return result
    }
}
