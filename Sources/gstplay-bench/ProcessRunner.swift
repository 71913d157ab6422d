import Foundation
import Glibc
import Synchronization

/// One program to run: what, with which arguments, for how long at most.
struct ProcessSpec: Sendable {
    /// A path, or a name looked up on `PATH` (`posix_spawnp`).
    var executable: String
    var arguments: [String]
    /// The process (and its process group) is killed with SIGKILL after this many seconds.
    var timeoutSeconds: Double
    /// Variables added to (or replacing those of) the harness's environment.
    var extraEnvironment: [String: String] = [:]
    /// A descriptor of the harness to give the child as its stdout (e.g. a pipe's write end),
    /// instead of a file the result's `stdout` is read from.
    var standardOutput: Int32?

    /// The command line as a shell would take it (for the report).
    var commandLine: String {
        ([executable] + arguments).map(Self.shellQuoted).joined(separator: " ")
    }

    static func shellQuoted(_ word: String) -> String {
        let safe = word.allSatisfy { $0.isLetter || $0.isNumber || "-_./=:,+%@".contains($0) }
        return safe && !word.isEmpty ? word : "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}

/// How a child ended.
enum Termination: Sendable, Equatable {
    case exited(Int32)
    case signaled(Int32)
    case timedOut(Double)
    case spawnFailed(String)
}

/// What `wait4` and the clock said about one finished child.
struct ProcessResult: Sendable {
    var termination: Termination
    /// Monotonic wall time from just before `posix_spawnp` to the child's exit (`waitid`).
    var wallSeconds: Double
    /// `ru_utime` / `ru_stime` of the child from `wait4`.
    var userSeconds: Double
    var systemSeconds: Double
    /// `ru_maxrss` of the child (KiB on Linux): its peak resident set.
    var maxRSSKiB: Int
    var stdout: String
    var stderr: String
    /// The harness's own peak RSS when the child was spawned. `posix_spawn` (vfork + exec) hands
    /// the parent's peak to the child's `ru_maxrss`, so a child peak at or below it is not the child's own.
    var inheritedRSSKiB = 0

    /// True when `ru_maxrss` is the child's own peak (above what it inherited from the harness).
    var peakRSSIsOwn: Bool { maxRSSKiB > inheritedRSSKiB }
    var cpuSeconds: Double { userSeconds + systemSeconds }
    var maxRSSMiB: Double { Double(maxRSSKiB) / 1024 }
    var succeeded: Bool { termination == .exited(0) }

    /// A one-line reason for a failed run, nil when it succeeded.
    var failureReason: String? {
        let detail = stderr.split(separator: "\n").last.map { ": " + String($0.prefix(160)) } ?? ""
        switch termination {
        case .exited(0): return nil
        case .exited(let code): return "exit status \(code)\(detail)"
        case .signaled(let signal): return "killed by \(Self.signalName(signal))\(detail)"
        case .timedOut(let seconds): return "timed out after \(Int(seconds)) s (killed)"
        case .spawnFailed(let why): return "could not start: \(why)"
        }
    }

    static func signalName(_ signal: Int32) -> String {
        switch signal {
        case SIGSEGV: return "SIGSEGV"
        case SIGABRT: return "SIGABRT"
        case SIGKILL: return "SIGKILL"
        case SIGBUS: return "SIGBUS"
        case SIGILL: return "SIGILL"
        case SIGTRAP: return "SIGTRAP"
        case SIGTERM: return "SIGTERM"
        case SIGINT: return "SIGINT"
        default: return "signal \(signal)"
        }
    }

    /// `key=value` lines of a bench child's stdout.
    var keyValues: [String: String] {
        var values: [String: String] = [:]
        for line in stdout.split(separator: "\n") {
            guard let equals = line.firstIndex(of: "=") else { continue }
            values[String(line[..<equals])] = String(line[line.index(after: equals)...])
        }
        return values
    }
}

/// Spawns children with `posix_spawnp` (stdin `/dev/null`, stdout and stderr to files, own
/// process group) and reaps them with `wait4` to get their resource usage.
///
/// **Thread:** one runner per harness; ``spawn(_:)`` and ``RunningProcess/wait()`` are called
/// from the harness's main thread. The timeout killer runs on a global dispatch queue.
final class ProcessRunner: Sendable {
    /// A private directory for the children's output files.
    let workDirectory: String
    /// Runs of this executable (the harness's own children) that failed: the harness is broken.
    private let ownExecutable: String
    private let ownFailures = Mutex<[String]>([])

    init(ownExecutable: String) throws {
        self.ownExecutable = ownExecutable
        var template = Array((NSTemporaryDirectory() + "/gstplay-bench.XXXXXX").utf8CString)
        guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
            throw BenchError("mkdtemp failed: \(String(cString: strerror(errno)))")
        }
        workDirectory = String(cString: made)
    }

    /// Removes the output directory.
    func cleanUp() { try? FileManager.default.removeItem(atPath: workDirectory) }

    /// Runs `spec` to the end.
    func run(_ spec: ProcessSpec) -> ProcessResult {
        let result: ProcessResult
        switch spawn(spec) {
        case .success(let process): result = process.wait()
        case .failure(let error): result = error.result
        }
        if spec.executable == ownExecutable, let reason = result.failureReason {
            ownFailures.withLock { $0.append("`\(spec.commandLine)`: \(reason)") }
        }
        return result
    }

    /// The harness's own children that failed so far.
    var failedOwnRuns: [String] { ownFailures.withLock { $0 } }

    struct SpawnFailure: Error { let result: ProcessResult }

    /// glibc's `posix_spawn_file_actions_addclosefrom_np` (2.34+; Swift's Glibc module does not
    /// declare it), looked up with `dlsym`; nil on an older C library.
    private static var addCloseFrom: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32)? {
        dlsym(nil, "posix_spawn_file_actions_addclosefrom_np").map {
            unsafeBitCast($0, to: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32).self)
        }
    }

    /// Starts `spec`; the caller must ``RunningProcess/wait()`` for it.
    func spawn(_ spec: ProcessSpec) -> Result<RunningProcess, SpawnFailure> {
        let id = UUID().uuidString.prefix(8)
        let outPath = "\(workDirectory)/\(id).out", errPath = "\(workDirectory)/\(id).err"

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        if let descriptor = spec.standardOutput {
            posix_spawn_file_actions_adddup2(&actions, descriptor, 1)
        } else {
            posix_spawn_file_actions_addopen(&actions, 1, outPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        }
        posix_spawn_file_actions_addopen(&actions, 2, errPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        // Nothing else of the harness: an inherited write end of a server's stdin pipe (Foundation's
        // `Pipe` is not close-on-exec) kept that server from seeing EOF until this child ended, and
        // the cell stopping it waited that long (the QoE run's "hung" players).
        _ = Self.addCloseFrom?(&actions, 3)

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var noSignals = sigset_t(), defaults = sigset_t()
        sigemptyset(&noSignals)
        sigemptyset(&defaults)
        for signal in [SIGPIPE, SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGCHLD] { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setpgroup(&attributes, 0) // own group: a timeout kills helpers too
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETPGROUP))

        var environment = ProcessInfo.processInfo.environment
        for (key, value) in spec.extraEnvironment { environment[key] = value }
        let argv: [UnsafeMutablePointer<CChar>?] = ([spec.executable] + spec.arguments).map { strdup($0) } + [nil]
        let envp: [UnsafeMutablePointer<CChar>?] = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            for pointer in argv { free(pointer) }
            for pointer in envp { free(pointer) }
        }

        var pid: pid_t = 0
        let started = MonotonicClock.now()
        let status = posix_spawnp(&pid, spec.executable, &actions, &attributes, argv, envp)
        guard status == 0 else {
            let reason = "\(spec.executable): \(String(cString: strerror(status)))"
            return .failure(SpawnFailure(result: ProcessResult(termination: .spawnFailed(reason), wallSeconds: 0, userSeconds: 0,
                                                               systemSeconds: 0, maxRSSKiB: 0, stdout: "", stderr: "")))
        }
        return .success(RunningProcess(pid: pid, started: started, spec: spec, outPath: outPath, errPath: errPath))
    }
}

/// A spawned child not yet reaped.
final class RunningProcess: Sendable {
    let pid: pid_t
    let started: Double
    let spec: ProcessSpec
    private let parentPeakKiB: Int
    private let outPath: String
    private let errPath: String
    /// `exited`: the child's exit was seen (no more signals to it); `timedOut`: the killer fired
    /// (never at a child that had already ended, reaped or not).
    private let guardState = Mutex<(exited: Bool, timedOut: Bool)>((false, false))

    fileprivate init(pid: pid_t, started: Double, spec: ProcessSpec, outPath: String, errPath: String) {
        self.pid = pid
        self.started = started
        self.spec = spec
        self.outPath = outPath
        self.errPath = errPath
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        parentPeakKiB = usage.ru_maxrss
        let deadline = DispatchTime.now() + spec.timeoutSeconds
        DispatchQueue.global().asyncAfter(deadline: deadline) { [self] in
            guardState.withLock { state in
                guard !state.exited, !hasExited else { return }
                state.timedOut = true
                kill(-pid, SIGKILL)
            }
        }
    }

    /// True once the child has ended, reaped or not (`waitid` with `WNOHANG | WNOWAIT`): the
    /// harness may reap it long after, while it waits for another child.
    private var hasExited: Bool {
        var info = siginfo_t()
        return waitid(P_PID, id_t(pid), &info, WEXITED | WNOHANG | WNOWAIT) == 0 && info._sifields._sigchld.si_pid == pid
    }

    /// Sends `signal` to the child's process group unless it has exited.
    func send(_ signal: Int32) {
        guardState.withLock { state in
            if !state.exited { kill(-pid, signal) }
        }
    }

    /// Waits for the exit (`waitid` with `WNOWAIT`, so the pid cannot be reused while the timeout
    /// killer may still signal it), then reaps with `wait4` for the rusage.
    func wait() -> ProcessResult {
        var info = siginfo_t()
        while waitid(P_PID, id_t(pid), &info, WEXITED | WNOWAIT) != 0 && errno == EINTR {}
        let ended = MonotonicClock.now()
        let timedOut = guardState.withLock { state -> Bool in
            state.exited = true
            return state.timedOut
        }
        var status: Int32 = 0
        var usage = rusage()
        while wait4(pid, &status, 0, &usage) < 0 && errno == EINTR {}
        let termination: Termination
        if timedOut {
            termination = .timedOut(spec.timeoutSeconds)
        } else if status & 0x7f == 0 {
            termination = .exited((status >> 8) & 0xff)
        } else {
            termination = .signaled(status & 0x7f)
        }
        let out = (try? String(contentsOfFile: outPath, encoding: .utf8)) ?? ""
        let err = (try? String(contentsOfFile: errPath, encoding: .utf8)) ?? ""
        unlink(outPath)
        unlink(errPath)
        return ProcessResult(termination: termination, wallSeconds: ended - started,
                             userSeconds: usage.ru_utime.seconds, systemSeconds: usage.ru_stime.seconds,
                             maxRSSKiB: usage.ru_maxrss, stdout: out, stderr: String(err.suffix(4000)),
                             inheritedRSSKiB: parentPeakKiB)
    }
}

extension timeval {
    var seconds: Double { Double(tv_sec) + Double(tv_usec) / 1e6 }
}

/// `CLOCK_MONOTONIC` in seconds.
enum MonotonicClock {
    static func now() -> Double {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
    }
}

/// A harness error with a message.
struct BenchError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
