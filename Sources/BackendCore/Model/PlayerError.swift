/// A structured playback error or warning, built on the loop thread from a `GstMessage`
/// (`gst_message_parse_error` / `gst_message_parse_warning`) or raised by the Backend itself.
public struct PlayerError: Error, Sendable, Hashable, Codable, CustomStringConvertible {
    /// Broad class of the problem; maps GStreamer's error domains and the Backend's own checks.
    public enum Kind: String, Sendable, Codable, CaseIterable {
        /// A file or resource could not be found, opened, read or written (`GST_RESOURCE_ERROR`).
        case resource
        /// The data could not be demuxed or decoded, or is corrupt (`GST_STREAM_ERROR`).
        case stream
        /// A GStreamer core failure (`GST_CORE_ERROR`), e.g. negotiation or a missing element.
        case core
        /// A library (codec) failure (`GST_LIBRARY_ERROR`).
        case library
        /// No decoder or source plugin exists for some stream (`missing-plugin` messages).
        case missingPlugin
        /// An HTTP or socket failure while fetching the media.
        case network
        /// The URI or path given is malformed or names nothing playable.
        case invalidInput
        /// An argument was out of range (seek target, rate, volume) — nothing was changed.
        case invalidArgument
        /// Anything else.
        case other
    }

    /// What went wrong on the way to the data, when the Backend could tell (``Kind/network``
    /// errors and their warnings); nil otherwise. The wire name is the raw value.
    public enum Cause: String, Sendable, Codable, CaseIterable {
        /// Nothing listens at the host and port (TCP connection refused).
        case connectionRefused = "connection-refused"
        /// The host name does not resolve.
        case hostNotFound = "host-not-found"
        /// The TLS handshake failed, e.g. `https://` to a plain-HTTP port, or a certificate not accepted.
        case tlsHandshakeFailed = "tls-handshake-failed"
        /// The server kept redirecting (libsoup stops after 20 redirects; a loop, usually).
        case tooManyRedirects = "too-many-redirects"
        /// The server redirected to a scheme other than http or https (`file://`, `data:`…): not followed.
        case redirectRefused = "redirect-refused"
        /// The connection was lost and the server cannot resume it (it ignores `Range`).
        case cannotResume = "cannot-resume"
        /// The server's answer is not valid HTTP/1.x (no status line, a NUL byte or a head over
        /// 64 KiB, a `Content-Length` that is not a byte count): final, no reload.
        case invalidResponse = "invalid-response"
        /// No data within the network timeout, or the connection was lost.
        case timedOut = "timed-out"
        /// A live source (udp://, rtsp://, …) sent no data within the network timeout.
        case noLiveData = "no-live-data"
    }

    /// The class of the problem.
    public var kind: Kind
    /// GStreamer's error code within its domain (0 for the Backend's own errors).
    public var code: Int
    /// Name of the GStreamer element that posted it (e.g. `source`, `qtdemux0`), if any.
    public var element: String?
    /// The human-readable message (`GError.message`).
    public var message: String
    /// GStreamer's debug text (file, function, details), if any.
    public var debug: String?
    /// Human descriptions of missing plugins (`gst_missing_plugin_message_get_description`),
    /// e.g. "AC-3 (ATSC A/52) decoder".
    public var missingPlugins: [String]
    /// The URI being played when it happened.
    public var uri: String?
    /// The HTTP status of the last response when it ended the request (≥ 300: an error status, or a redirect that was not followed, e.g. a loop).
    public var httpStatus: Int?
    /// What went wrong, when known (network failures); see ``Cause``.
    public var cause: Cause?

    /// Creates an error value.
    public init(kind: Kind, code: Int = 0, element: String? = nil, message: String,
                debug: String? = nil, missingPlugins: [String] = [], uri: String? = nil, httpStatus: Int? = nil,
                cause: Cause? = nil) {
        self.kind = kind
        self.code = code
        self.element = element
        self.message = message
        self.debug = debug
        self.missingPlugins = missingPlugins
        self.uri = uri
        self.httpStatus = httpStatus
        self.cause = cause
    }

    /// Why the element's streaming thread stopped, from GStreamer's debug text (`streaming
    /// stopped, reason not-linked (-1)` after "Internal data stream error."): `not-linked`,
    /// `not-negotiated`…; nil without one, and for `error` (an element's own error, already
    /// the message).
    public var streamingStopReason: String? {
        let marker = "streaming stopped, reason "
        guard let line = debug?.split(whereSeparator: \.isNewline).first(where: { $0.hasPrefix(marker) }) else { return nil }
        let reason = line.dropFirst(marker.count).prefix { ($0.isASCII && $0.isLetter) || $0 == "-" }
        return reason.isEmpty || reason == "error" ? nil : String(reason)
    }

    /// One line for a person: `element: message (streaming stopped: …) (missing: …)`.
    public var description: String {
        var line = element.map { "\($0): " } ?? ""
        line += message
        if let reason = streamingStopReason { line += " (streaming stopped: \(reason))" }
        if let httpStatus { line += " (HTTP \(httpStatus))" }
        if !missingPlugins.isEmpty { line += " (missing: " + missingPlugins.joined(separator: ", ") + ")" }
        return line
    }
}
