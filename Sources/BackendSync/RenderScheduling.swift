import BackendCore
import CGStreamer
import GLibSupport
import Glibc
import Synchronization

/// Real-time scheduling for the few threads whose timing *is* the synchronisation: the threads
/// that wait on the clock and render (each sink's streaming thread, behind playsink's own
/// queue, so it does no decoding) and the network clock's thread (which timestamps its
/// packets). On a busy machine an ordinary thread woken at its due time waits for a core, and
/// that wait — milliseconds under load — is how far apart two players render; a `SCHED_FIFO`
/// thread preempts ordinary ones at once.
///
/// Asked for with `pthread_setschedparam(SCHED_FIFO, ``fifoPriority``)`, which needs
/// `CAP_SYS_NICE` or an `RLIMIT_RTPRIO` of at least that priority (`ulimit -r`, limits.conf);
/// without either it falls back to nice −10 (`setpriority`, needs `RLIMIT_NICE`), and without
/// that the thread stays as it was. Nothing fails either way: the outcome is traced once.
/// The kernel's real-time throttling (`sched_rt_runtime_us`) keeps a runaway thread from
/// taking a whole core. **Thread:** the calling thread is the one changed.
enum RenderScheduling {
    /// The `SCHED_FIFO` priority asked for: above every ordinary thread, below audio servers'
    /// (PipeWire and JACK ask for 70–88).
    static let fifoPriority: Int32 = 10

    /// What the calling thread got.
    enum Outcome: String, Sendable {
        case realtime = "real-time (SCHED_FIFO)"
        case niced = "nice -10"
        case unchanged = "ordinary (no real-time or nice permission)"
    }

    /// Raises the calling thread (see the type's description).
    static func raiseCallingThread() -> Outcome {
        var parameters = sched_param()
        parameters.sched_priority = fifoPriority
        if pthread_setschedparam(pthread_self(), SCHED_FIFO, &parameters) == 0 { return .realtime }
        // PRIO_PROCESS with 0 is the calling thread on Linux (a thread is a task).
        if setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, -10) == 0 { return .niced }
        return .unchanged
    }

    /// Runs `body` with the calling thread raised, then puts the thread back as it was: threads
    /// that `body` starts inherit the raise (glibc's default `PTHREAD_INHERIT_SCHED`), which is
    /// how a thread GStreamer starts inside a constructor (`GstNetTimeProvider`'s) gets it.
    static func raisingThreadsStarted<Result, Failure: Error>(by body: () throws(Failure) -> Result) throws(Failure) -> Result {
        var policy: Int32 = 0
        var parameters = sched_param()
        let saved = pthread_getschedparam(pthread_self(), &policy, &parameters) == 0
        errno = 0
        let nice = getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0)
        let niceKnown = errno == 0
        _ = raiseCallingThread()
        defer {
            if saved { _ = pthread_setschedparam(pthread_self(), policy, &parameters) }
            if niceKnown { _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, nice) }
        }
        return try body()
    }

    /// Raises, on its first buffer, the thread that pushes into each of `sinks` (a buffer probe on
    /// the sink's `sink` pad, `gst_pad_add_probe`), and again whenever another thread takes over
    /// (a new item's streaming thread). `report` gets each distinct outcome once (streaming thread).
    static func raiseRenderThreads(of sinks: [UnsafeMutablePointer<GstElement>], report: @escaping @Sendable (Outcome) -> Void) {
        let watch = ThreadWatch(report: report)
        for sink in sinks {
            guard let pad = gst_element_get_static_pad(sink, "sink") else { continue }
            defer { gst_object_unref(UnsafeMutableRawPointer(pad)) }
            _ = gst_pad_add_probe(pad, GST_PAD_PROBE_TYPE_BUFFER, { _, _, data in
                guard let data else { return GST_PAD_PROBE_OK }
                CallbackBox<ThreadWatch>.from(data).value.raiseIfNew()
                return GST_PAD_PROBE_OK
            }, CallbackBox(watch).retainedPointer, callbackBoxRelease)
        }
    }

    /// The threads already raised (a short list: a sink's thread changes with each item) and the
    /// outcomes already reported. **Thread:** streaming threads, under its `Mutex`.
    final class ThreadWatch: Sendable {
        private struct Seen {
            var threads: [pthread_t] = []
            var reported: Set<String> = []
        }
        private let seen = Mutex(Seen())
        /// The thread raised last: the buffers of one streaming thread pass here without the lock.
        /// An Atomic of its own on purpose: it is read on every buffer of every sink's thread, and
        /// in the Mutex those reads were reported by ThreadSanitizer, which does not see Swift's
        /// Mutex on Linux (Tests/tsan.supp) — an atomic load is both cheaper and visible to it.
        private let last = Atomic<UInt>(0)
        private let report: @Sendable (Outcome) -> Void

        init(report: @escaping @Sendable (Outcome) -> Void) { self.report = report }

        /// Raises the calling thread unless it was already (one atomic load on every later buffer).
        func raiseIfNew() {
            let me = pthread_self()
            guard last.load(ordering: .relaxed) != me else { return }
            last.store(me, ordering: .relaxed)
            let isNew = seen.withLock { seen in
                guard !seen.threads.contains(me) else { return false }
                seen.threads.append(me)
                if seen.threads.count > 16 { seen.threads.removeFirst() }
                return true
            }
            guard isNew else { return }
            let outcome = RenderScheduling.raiseCallingThread()
            let first = seen.withLock { $0.reported.insert(outcome.rawValue).inserted }
            if first { report(outcome) }
        }
    }
}
