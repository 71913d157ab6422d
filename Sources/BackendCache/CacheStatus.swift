/// What the media cache did with the loaded URI (``CacheFeature``): the `cache` section of the
/// statistics and the ``CacheEvent/status(_:)`` event.
public struct CacheStatus: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The cache's verdicts, in the order a download goes through them.
    public enum State: String, Sendable, Hashable, Codable {
        /// The URI was in the cache: the local file plays, no network request is made.
        case hit
        /// Not in the cache: it plays over the network.
        case miss
        /// The download is being written to a partial file.
        case storing
        /// Every byte arrived and agreed with the length: the file is now in the cache.
        case stored
        /// The partial file was deleted (`reason` says why: incomplete, disjoint after a seek, …).
        case discarded
    }

    /// The verdict.
    public var state: State
    /// The cached file (`hit`, `stored`) or the partial download (`storing`).
    public var path: String?
    /// Why the download was discarded.
    public var reason: String?

    /// Creates the value.
    public init(state: State, path: String? = nil, reason: String? = nil) {
        self.state = state
        self.path = path
        self.reason = reason
    }

    /// `hit`, `miss`, `storing`, `stored`, or `discarded(reason)`.
    public var description: String { state == .discarded ? "discarded(\(reason ?? ""))" : state.rawValue }
}
