import CGStreamer

/// A Swift value carried through a C `user_data` pointer.
///
/// `retainedPointer` hands one +1 reference to C; the matching `GDestroyNotify` /
/// `GClosureNotify` (``CallbackBox/releaseNotify`` / ``CallbackBox/closureReleaseNotify``)
/// drops it exactly once, so the box outlives every callback GLib can still make.
package final class CallbackBox<Value>: @unchecked Sendable {
    package let value: Value
    package init(_ value: Value) { self.value = value }

    /// A +1 reference for C.
    package var retainedPointer: UnsafeMutableRawPointer { Unmanaged.passRetained(self).toOpaque() }

    /// Borrows the box behind a `user_data` pointer without changing its count.
    package static func from(_ pointer: UnsafeMutableRawPointer) -> CallbackBox<Value> {
        Unmanaged<CallbackBox<Value>>.fromOpaque(pointer).takeUnretainedValue()
    }
}

/// Releases a box given to C with `retainedPointer` (a `GDestroyNotify`). Works for any box type.
package let callbackBoxRelease: GDestroyNotify = { pointer in
    guard let pointer else { return }
    Unmanaged<AnyObject>.fromOpaque(pointer).release()
}

/// Releases a box given to `g_signal_connect_data` (a `GClosureNotify`).
package let callbackBoxClosureRelease: GClosureNotify = { pointer, _ in
    guard let pointer else { return }
    Unmanaged<AnyObject>.fromOpaque(pointer).release()
}
