import CGStreamer
import GLibSupport
import Glibc
import Synchronization

/// A diagnostic log of what the sinks rendered and when: one line per buffer,
/// `<kind> <buffer pts ns> <running time ns> <CLOCK_REALTIME ns>`, where kind is `video` or
/// `audio`, the running time is the pipeline clock's time at the render moment minus the sink's
/// base time (with a network clock, the shared clock's), and the last field is the wall clock at
/// that moment. Comparing the realtime two machines logged for the same pts tells how far apart
/// they played (the sync bench, docs/BENCHMARKS.md).
///
/// Lines are appended to a memory buffer under a lock (the streaming threads only format and
/// copy) and written to the file by a thread of its own every 100 ms and at ``close()``, so a
/// slow disk never holds a sink back. **Thread:** any.
public final class RenderLog: Sendable {
    /// Why the log file could not be opened.
    public struct OpenError: Error, Sendable, CustomStringConvertible {
        /// The path and the system's reason, for a `gstplay:` line.
        public let description: String
    }

    /// Shared by the sinks' streaming threads, the writer thread and ``close()``'s caller.
    private struct State {
        var pending: [UInt8] = []
        var closed = false
        /// Set by the writer thread once it wrote everything after ``close()``.
        var finished = false
    }

    private let descriptor: Int32
    private let state = Mutex(State())

    /// Creates (truncates) the file at `path` and starts the writer thread; throws
    /// ``OpenError`` when the file cannot be created.
    public init(path: String) throws(OpenError) {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else {
            throw OpenError(description: "cannot write the render log '\(path)': \(String(cString: strerror(errno)))")
        }
        descriptor = fd
        DetachedThread.start(name: "render-log") { [self] in writeLoop() }
    }

    /// Appends one line (any thread, cheap: no I/O).
    public func record(kind: String, pts: UInt64, runningTime: UInt64, realtime: UInt64) {
        let line = "\(kind) \(pts) \(runningTime) \(realtime)\n"
        state.withLock { state in
            guard !state.closed else { return }
            state.pending.append(contentsOf: line.utf8)
        }
    }

    /// Writes what is pending and closes the file; later lines are dropped. Waits (at most about
    /// 1 s) for the writer thread to finish. Idempotent; any thread.
    public func close() {
        let wasClosed = state.withLock { state in
            defer { state.closed = true }
            return state.closed
        }
        guard !wasClosed else { return }
        for _ in 0..<100 where !state.withLock({ $0.finished }) { g_usleep(10_000) }
    }

    /// CLOCK_REALTIME now, in nanoseconds.
    public static func realtimeNow() -> UInt64 {
        var spec = timespec()
        clock_gettime(CLOCK_REALTIME, &spec)
        return UInt64(spec.tv_sec) &* 1_000_000_000 &+ UInt64(spec.tv_nsec)
    }

    /// The writer thread: every 100 ms takes the pending bytes and writes them; after
    /// ``close()``, writes the rest, closes the file and says so.
    private func writeLoop() {
        while true {
            let (bytes, closed) = state.withLock { state in
                defer { state.pending.removeAll(keepingCapacity: true) }
                return (state.pending, state.closed)
            }
            write(bytes)
            if closed { break }
            g_usleep(100_000)
        }
        Glibc.close(descriptor)
        state.withLock { $0.finished = true }
    }

    private func write(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let written = Glibc.write(descriptor, raw.baseAddress! + offset, raw.count - offset)
                if written < 0 && errno == EINTR { continue }
                guard written > 0 else { return }
                offset += written
            }
        }
    }
}
