import CGStreamer

/// Building ``PlayerError``s from GStreamer's ERROR and WARNING bus messages (loop thread).
extension PlayerError {
    /// Parses an ERROR message (`gst_message_parse_error`).
    init(errorMessage message: UnsafeMutablePointer<GstMessage>, facts: MediaFacts) {
        var gerror: UnsafeMutablePointer<GError>?
        var debug: UnsafeMutablePointer<gchar>?
        gst_message_parse_error(message, &gerror, &debug)
        self.init(message: message, gerror: gerror, debug: debug, facts: facts)
    }

    /// Parses a WARNING message (`gst_message_parse_warning`).
    init(warningMessage message: UnsafeMutablePointer<GstMessage>, facts: MediaFacts) {
        var gerror: UnsafeMutablePointer<GError>?
        var debug: UnsafeMutablePointer<gchar>?
        gst_message_parse_warning(message, &gerror, &debug)
        self.init(message: message, gerror: gerror, debug: debug, facts: facts)
    }

    /// Classifies the GError (domain and code → ``Kind``; network sources → ``Kind/network``)
    /// and frees it and the debug text.
    private init(message: UnsafeMutablePointer<GstMessage>, gerror: UnsafeMutablePointer<GError>?,
                 debug: UnsafeMutablePointer<gchar>?, facts: MediaFacts) {
        let element = CGStreamer_message_src_name(message).map { String(cString: $0) }
        let debugText = String(takingGLibString: debug)
        defer { if gerror != nil { g_error_free(gerror) } }
        guard let gerror else {
            self.init(kind: .other, element: element, message: "unknown error", debug: debugText, uri: facts.uri)
            return
        }
        let domain = gerror.pointee.domain
        let code = Int(gerror.pointee.code)
        var text = gerror.pointee.message.map { String(cString: $0) } ?? "unknown error"
        var kind: Kind
        switch domain {
        case gst_resource_error_quark(): kind = .resource
        case gst_stream_error_quark(): kind = .stream
        case gst_core_error_quark(): kind = .core
        case gst_library_error_quark(): kind = .library
        default: kind = .other
        }
        let httpStatus = facts.lastHTTPStatus
        if (domain == gst_core_error_quark() && code == Int(GST_CORE_ERROR_MISSING_PLUGIN.rawValue))
            || (domain == gst_stream_error_quark() && code == Int(GST_STREAM_ERROR_CODEC_NOT_FOUND.rawValue)) {
            kind = .missingPlugin
        } else if facts.isNetworkURI, !Self.isLocalDownloadFile(element, domain: domain), kind == .resource || (kind == .stream && element == "source") || httpStatus.map({ $0 >= 300 }) == true {
            kind = .network
        }
        var cause: Cause?
        if kind == .network, element == "source" {
            (text, cause) = Self.named(text, domain: domain, code: code, httpStatus: httpStatus)
        }
        self.init(kind: kind, code: code, element: element, message: text, debug: debugText,
                  missingPlugins: facts.missingPlugins, uri: facts.uri,
                  httpStatus: httpStatus.flatMap { $0 >= 300 ? $0 : nil }, cause: cause)
    }

    /// Names souphttpsrc's network failures from what reaches the bus: the
    /// GError's domain and code, and the status of the last `http-headers` message.
    /// - the generic flow error of its streaming loop ("Internal data stream error."): no data
    ///   within the timeout, a lost connection, or (status 0 or none: no response at all) a
    ///   refused connection or failed TLS handshake, which ``ConnectionProbe`` then tells apart;
    /// (A 3xx keeps the server's reason: the Backend follows redirects itself, see Engine+Redirect.)
    /// - `GST_RESOURCE_ERROR_SEEK` ("Server does not support seeking."): souphttpsrc asked to go
    ///   on from a byte offset (to resume after a reset, or for a seek) and got the whole file.
    static func named(_ text: String, domain: GQuark, code: Int, httpStatus: Int?) -> (String, Cause?) {
        if domain == gst_stream_error_quark(), code == Int(GST_STREAM_ERROR_FAILED.rawValue), (httpStatus ?? 200) < 300 {
            return ("the server sent no data within the network timeout, or the connection was lost", .timedOut)
        }
        if domain == gst_resource_error_quark(), code == Int(GST_RESOURCE_ERROR_SEEK.rawValue) {
            return ("the server cannot resume the download (it ignores Range requests)", .cannotResume)
        }
        return (text, nil)
    }

    /// A resource error of the download file (`downloadbuffer`, `queue2`: create, write, disk
    /// full) is a local disk failure, not a network one, even while playing an http(s) URI.
    static func isLocalDownloadFile(_ element: String?, domain: GQuark) -> Bool {
        guard domain == gst_resource_error_quark(), let element else { return false }
        return element.hasPrefix("downloadbuffer") || element.hasPrefix("queue2")
    }
}
