import BackendCore
import CGStreamer

/// A clean close: the window manager's close button makes the X sinks post a
/// `GST_RESOURCE_ERROR_NOT_FOUND` error ("Output window was closed"; `glimagesink`: "Quit
/// requested") and a window destroyed by another client shows as `DestroyNotify` on the
/// Backend's own X connection (watched on the loop, `XSelectInput` `StructureNotifyMask`).
/// Either way the player stops — no error is reported, the queue does not move on and no sink
/// opens a new window — and ``WindowEvent/closed`` is published once. Loop thread only.
extension WindowFeature {
    /// Whether `message` (an ERROR) is a video sink saying its window was closed: domain
    /// `GST_RESOURCE_ERROR`, code `NOT_FOUND`, posted by the video sink or an element inside it
    /// (`gst_object_has_as_ancestor`), while the sink draws into a window of its own.
    func isWindowClosedError(_ message: UnsafeMutablePointer<GstMessage>) -> Bool {
        guard window.renderTarget == nil, let sink = context?.video.sink, let source = CGStreamer_message_src(message) else { return false }
        let sinkObject = UnsafeMutableRawPointer(sink).assumingMemoryBound(to: GstObject.self)
        guard source == sinkObject || gst_object_has_as_ancestor(source, sinkObject) != 0 else { return false }
        var error: UnsafeMutablePointer<GError>?
        gst_message_parse_error(message, &error, nil)
        defer { g_clear_error(&error) }
        guard let error else { return false }
        return error.pointee.domain == gst_resource_error_quark() && error.pointee.code == GST_RESOURCE_ERROR_NOT_FOUND.rawValue
    }

    /// The sink's own window was closed or destroyed: stop the player (no new window, no error,
    /// the queue stays) and publish ``WindowEvent/closed`` (once per window).
    func windowClosed() {
        guard !closeReported else { return }
        closeReported = true
        window.forgetOwnWindow()
        context?.publish(WindowEvent.closed)
        context?.transport.stop()
    }

    /// A `have-window-handle` named the sink's window: watch it for `DestroyNotify` (the display
    /// connection's socket is watched on the loop once).
    func ownWindowAppeared() {
        guard let own = window.ownWindow, own != watchedWindow else { return }
        watchedWindow = own
        closeReported = false
        window.x11.watchStructure(of: own)
        if displayWatch == nil, let fd = window.x11.fileDescriptor {
            displayWatch = context?.loop.watchInput(on: fd) { [weak self] in self?.readDisplayEvents() ?? false }
        }
        _ = readDisplayEvents()   // XSync may have queued some already
        if wantsFullscreen, !window.isFullscreen { toggleFullscreen() }
    }

    /// Reads the X events waiting; a destroyed own window closes. False (the watch ends) when the
    /// connection is gone.
    private func readDisplayEvents() -> Bool {
        guard window.x11.fileDescriptor != nil else {
            displayWatch = nil
            return false
        }
        let destroyed = window.x11.nextDestroyedWindows()
        if let watchedWindow, destroyed.contains(watchedWindow) {
            self.watchedWindow = nil
            if sinkIsRunning { windowClosed() } else { window.forgetOwnWindow() }   // the sink's own going to NULL
        }
        return true
    }

    /// The video sink is in PAUSED or PLAYING and not on its way down: a window destroyed now was
    /// not destroyed by the sink itself (it destroys its window going from READY to NULL).
    private var sinkIsRunning: Bool {
        guard let sink = context?.video.sink else { return false }
        let current = sink.pointee.current_state.rawValue, pending = sink.pointee.pending_state.rawValue
        return current >= GST_STATE_PAUSED.rawValue && (pending == GST_STATE_VOID_PENDING.rawValue || pending >= GST_STATE_PAUSED.rawValue)
    }
}
