/// Why a set of sync options (``SyncSettings/fromOptions(serve:serveAt:syncTo:syncClock:latencyMilliseconds:)``)
/// makes no settings: ``description`` is the one line to show the user (the CLI's message, without
/// its `gstplay:` prefix). A plain value; any thread.
public struct SyncSettingsError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The message, e.g. `--sync-clock needs --sync-to`.
    public let description: String

    /// An error saying `description`.
    public init(_ description: String) { self.description = description }
}

public extension SyncSettings {
    /// Where a leader listens without an address: every interface, port 5800 (TCP for the session,
    /// UDP for the clock).
    static let defaultServe = SyncEndpoint(host: "0.0.0.0", port: 5800)

    /// The settings the sync options describe (docs/CLI.md, "Playing in sync"), in their text form
    /// as a user typed them: `serve` (lead on ``defaultServe``), `serveAt` (lead there:
    /// `ADDR:PORT` or a port alone, port 0 for a free one), `syncTo` (follow the leader at
    /// `HOST:PORT`), `syncClock` (a follower's clock at `HOST:PORT`) and `latencyMilliseconds` (a
    /// leader's group latency, 10 to 5000). Nil when neither role is asked for; throws for a bad
    /// endpoint or latency, both roles at once, or an option without its role. Pure; any thread.
    static func fromOptions(serve: Bool, serveAt: String?, syncTo: String?, syncClock: String?,
                            latencyMilliseconds: Int?) throws(SyncSettingsError) -> SyncSettings? {
        let leads = serve || serveAt != nil
        if leads && syncTo != nil { throw SyncSettingsError("--sync-serve and --sync-to cannot be used together") }
        if syncClock != nil && syncTo == nil { throw SyncSettingsError("--sync-clock needs --sync-to") }
        if latencyMilliseconds != nil && !leads {
            throw SyncSettingsError("--sync-latency needs --sync-serve (followers take the leader's)")
        }
        if leads {
            var endpoint = defaultServe
            if let serveAt {
                guard let parsed = SyncEndpoint.parse(serveAt, allowsPortZero: true) ?? portOnly(serveAt) else {
                    throw SyncSettingsError("--sync-serve=ADDR:PORT needs an IP address and a port 0 to 65535 (0: a free one) (got '\(serveAt)')")
                }
                endpoint = parsed
            }
            var settings = SyncSettings(role: .leader(endpoint: endpoint))
            if let latencyMilliseconds {
                guard (10...5000).contains(latencyMilliseconds) else {
                    throw SyncSettingsError("--sync-latency must be between 10 and 5000 ms (got \(latencyMilliseconds))")
                }
                settings.latency = .milliseconds(latencyMilliseconds)
            }
            return settings
        }
        guard let syncTo else { return nil }
        guard let leader = SyncEndpoint.parse(syncTo) else {
            throw SyncSettingsError("--sync-to needs HOST:PORT, the leader's --sync-serve address (got '\(syncTo)')")
        }
        var clock: SyncEndpoint?
        if let syncClock {
            guard let parsed = SyncEndpoint.parse(syncClock) else { throw SyncSettingsError("--sync-clock needs HOST:PORT (got '\(syncClock)')") }
            clock = parsed
        }
        return SyncSettings(role: .follower(leader: leader, clock: clock))
    }

    /// `PORT` alone: every interface, that port.
    private static func portOnly(_ text: String) -> SyncEndpoint? {
        guard let port = UInt16(text) else { return nil }
        return SyncEndpoint(host: defaultServe.host, port: port)
    }
}
