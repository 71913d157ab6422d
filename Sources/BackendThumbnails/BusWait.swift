import BackendCore
import CGStreamer

/// Blocking waits on a private pipeline's bus (`gst_bus_timed_pop_filtered`), for the
/// Backend's helper pipelines that run on a worker thread without a GLib main loop.
/// The wait is cut into short slices so cancellation is noticed within ~50 ms.
enum BusWait {
    /// What ended the wait.
    enum Outcome {
        case asyncDone
        case endOfStream
        case error(PlayerError)
        case timedOut
        case cancelled
    }

    /// Waits for ASYNC_DONE, EOS or ERROR on `bus` (other messages are dropped), at most
    /// `timeout`, returning `.cancelled` as soon as `isCancelled()` says so. ELEMENT messages
    /// popped on the way (e.g. `videoanalyse`'s) are handed to `element` when it is given.
    /// Any thread.
    static func next(on bus: UnsafeMutablePointer<GstBus>, timeout: Duration, uri: String?,
                     isCancelled: () -> Bool, element: ((UnsafeMutablePointer<GstMessage>) -> Void)? = nil) -> Outcome {
        var wanted = GST_MESSAGE_ASYNC_DONE.rawValue | GST_MESSAGE_EOS.rawValue | GST_MESSAGE_ERROR.rawValue
        if element != nil { wanted |= GST_MESSAGE_ELEMENT.rawValue }
        let types = GstMessageType(rawValue: wanted)
        let slice: GstClockTime = 50_000_000
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: timeout)
        while clock.now < deadline {
            if isCancelled() { return .cancelled }
            guard let message = gst_bus_timed_pop_filtered(bus, slice, types) else { continue }
            defer { gst_message_unref(message) }
            switch CGStreamer_message_type(message) {
            case GST_MESSAGE_ASYNC_DONE: return .asyncDone
            case GST_MESSAGE_EOS: return .endOfStream
            case GST_MESSAGE_ELEMENT: element?(message); continue
            default: return .error(playerError(from: message, uri: uri))
            }
        }
        return isCancelled() ? .cancelled : .timedOut
    }

    /// A ``PlayerError`` from an ERROR message (`gst_message_parse_error`).
    static func playerError(from message: UnsafeMutablePointer<GstMessage>, uri: String?) -> PlayerError {
        var gerror: UnsafeMutablePointer<GError>?
        var debug: UnsafeMutablePointer<gchar>?
        gst_message_parse_error(message, &gerror, &debug)
        let element = CGStreamer_message_src_name(message).map { String(cString: $0) }
        let debugText = String(takingGLibString: debug)
        defer { if gerror != nil { g_error_free(gerror) } }
        guard let gerror else { return PlayerError(kind: .other, element: element, message: "unknown error", debug: debugText, uri: uri) }
        let kind: PlayerError.Kind
        switch gerror.pointee.domain {
        case gst_resource_error_quark(): kind = .resource
        case gst_stream_error_quark(): kind = .stream
        case gst_core_error_quark(): kind = .core
        case gst_library_error_quark(): kind = .library
        default: kind = .other
        }
        let text = gerror.pointee.message.map { String(cString: $0) } ?? "unknown error"
        return PlayerError(kind: kind, code: Int(gerror.pointee.code), element: element, message: text, debug: debugText, uri: uri)
    }
}
