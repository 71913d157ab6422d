import CGStreamer

/// A `GCancellable`: a one-way "stop" shared between the thread that cancels and the worker
/// that checks it, or a GIO call that returns at once when it is cancelled. One reference,
/// dropped in `deinit` (`g_object_unref`).
///
/// **Thread:** any (GCancellable is thread-safe; `@unchecked` because the pointer is a C object).
package final class Cancellable: @unchecked Sendable {
    /// The `GCancellable` itself, for GIO and libsoup calls that take one.
    package let pointer: UnsafeMutablePointer<GCancellable>

    /// A new, uncancelled one (`g_cancellable_new`).
    package init() { pointer = g_cancellable_new() }

    /// Cancels it (`g_cancellable_cancel`); a GIO call under way with it returns at once.
    package func cancel() { g_cancellable_cancel(pointer) }

    /// True once ``cancel()`` was called on any thread (`g_cancellable_is_cancelled`).
    package var isCancelled: Bool { g_cancellable_is_cancelled(pointer) != 0 }

    deinit { g_object_unref(UnsafeMutableRawPointer(pointer)) }
}
