import CGStreamer
import Dispatch
import Foundation
import Synchronization

/// The floor for the tick cadence: a bare GLib timeout (`g_timeout_source_new`) on its own
/// `GMainContext` and thread in the same process, doing nothing but noting when it fires. Late
/// ticks that it shares with the Backend's tick come from the machine, not from the Backend.
///
/// `@unchecked Sendable`: the GLib pointers are set once in `init`; other threads only call
/// `g_main_loop_quit` / `g_main_context_wakeup` (thread-safe in GLib), and ``stop()`` frees them
/// after the loop thread has ended. The firing times are behind a `Mutex`.
final class FloorTicker: @unchecked Sendable {
    private let context: OpaquePointer
    private let loop: OpaquePointer
    private let times = Mutex<[Double]>([])
    private let finished = DispatchSemaphore(value: 0)
    private var source: UnsafeMutablePointer<GSource>?

    init(intervalMilliseconds: UInt32) {
        context = g_main_context_new()
        loop = g_main_loop_new(context, 0)
        let retained = Unmanaged.passRetained(self).toOpaque()
        let attached = CGStreamer_timeout_attach(context, intervalMilliseconds, { data in
            Unmanaged<FloorTicker>.fromOpaque(data!).takeUnretainedValue().fired()
            return 1
        }, retained, { data in Unmanaged<FloorTicker>.fromOpaque(data!).release() })
        source = attached
        Thread { [self] in
            g_main_context_push_thread_default(context)
            g_main_loop_run(loop)
            g_main_context_pop_thread_default(context)
            finished.signal()
        }.start()
    }

    private func fired() {
        let now = MonotonicClock.now()
        times.withLock { $0.append(now) }
    }

    /// Stops the loop, waits for its thread, and returns the firing times.
    func stop() -> [Double] {
        g_main_loop_quit(loop)
        g_main_context_wakeup(context)
        finished.wait()
        if let attached = source {
            g_source_destroy(attached)
            g_source_unref(attached)
            source = nil
        }
        g_main_loop_unref(loop)
        g_main_context_unref(context)
        return times.withLock { $0 }
    }
}
