/// What the web remote (`--remote`) listens with: the port (0: a free one), the address to bind and the
/// token. A plain value; any thread.
public struct RemoteSettings: Equatable, Sendable {
    /// The port to listen on (0: a free one).
    public var port: UInt16 = 0
    /// `127.0.0.1` unless `--remote-bind` says otherwise.
    public var bind = "127.0.0.1"
    /// From `--remote-token-file`; nil: a fresh random one at start.
    public var token: String?
    /// True when `--remote-bind` was given (a warning is printed).
    public var exposed: Bool { bind != "127.0.0.1" && bind != "::1" }

    /// Settings for port `port` on `bind` with `token` (nil: a random one at start).
    public init(port: UInt16 = 0, bind: String = "127.0.0.1", token: String? = nil) {
        self.port = port
        self.bind = bind
        self.token = token
    }
}
