/// Why a call to a renderer (``RendererControl``) failed.
///
/// **Thread:** a value; completions carrying it run on the player's loop thread.
public enum CastError: Error, Sendable, Hashable {
    /// The renderer did not answer within the call's timeout (the request was cancelled).
    case timeout
    /// The renderer answered with a UPnP error (a SOAP fault: `errorCode`, `errorDescription`),
    /// e.g. 714 "Illegal MIME-type", 716 "Resource not found", 701 "Transition not available".
    case renderer(code: Int, description: String)
    /// The renderer is no longer there (connection refused or reset, its device went away).
    case gone
    /// Any other failure on the way (HTTP error, unreadable reply, missing service), with GLib's message.
    case transport(String)
}

public extension CastError {
    /// The renderer did not answer at all (``gone`` or ``timeout``): it is off the network or hung,
    /// not refusing one request.
    var isUnreachable: Bool {
        switch self {
        case .gone, .timeout: true
        case .renderer, .transport: false
        }
    }
}

extension CastError: CustomStringConvertible {
    /// One line for people.
    public var description: String {
        switch self {
        case .timeout: "the renderer did not answer in time"
        case .renderer(let code, let text): "the renderer refused (UPnP error \(code): \(text))"
        case .gone: "the renderer is gone"
        case .transport(let message): "cannot reach the renderer: \(message)"
        }
    }
}
