import ArgumentParser
import Backend

/// `--sync-serve[=ADDR:PORT]`, `--sync-to HOST:PORT`, `--sync-clock HOST:PORT`,
/// `--sync-latency MS` (docs/CLI.md, "Playing in sync"): lead or follow a sync group. Hidden
/// from `--help`, which is kept short (NewcomerCLITests); `--help-hidden` and docs/CLI.md list
/// them. Parsed by ArgumentParser on the main thread; a plain value.
struct SyncOptions: ParsableArguments {
    /// The hidden option `--sync-serve=ADDR:PORT` becomes (``FlagValueRewrite``).
    static let hiddenEndpointName = "sync-serve-at"
    /// Where a leader listens without a value: every interface, port 5800 (TCP for the session,
    /// UDP for the clock).
    static let defaultServe = SyncEndpoint(host: "0.0.0.0", port: 5800)

    @Flag(name: .customLong("sync-serve"), help: ArgumentHelp(
        "Lead a sync group: serve the clock (UDP) and the session (HTTP) on 0.0.0.0:5800 (--sync-serve=ADDR:PORT: there).",
        visibility: .hidden))
    var serve = false

    @Option(name: .customLong(hiddenEndpointName), help: .hidden)
    var serveAt: String?

    @Option(name: .customLong("sync-to"), help: ArgumentHelp(
        "Follow the sync leader at HOST:PORT: play what it plays, when it plays it (no locations).",
        valueName: "host:port", visibility: .hidden))
    var syncTo: String?

    @Option(name: .customLong("sync-clock"), help: ArgumentHelp(
        "With --sync-to: ask the leader's clock at HOST:PORT (UDP) instead of the leader's host and clock port.",
        valueName: "host:port", visibility: .hidden))
    var syncClock: String?

    @Option(name: .customLong("sync-latency"), help: ArgumentHelp(
        "With --sync-serve: the pipeline latency of the whole group, in ms (10-5000; default 200).",
        valueName: "ms", visibility: .hidden))
    var syncLatency: Int?

    /// The settings, nil without `--sync-serve` or `--sync-to`; throws `ValidationError`
    /// (exit 2) for a bad endpoint or latency, both roles at once, or an option without its role.
    func settings() throws -> SyncSettings? {
        let leads = serve || serveAt != nil
        if leads && syncTo != nil { throw ValidationError("--sync-serve and --sync-to cannot be used together") }
        if syncClock != nil && syncTo == nil { throw ValidationError("--sync-clock needs --sync-to") }
        if syncLatency != nil && !leads { throw ValidationError("--sync-latency needs --sync-serve (followers take the leader's)") }
        var settings: SyncSettings
        if leads {
            var endpoint = Self.defaultServe
            if let serveAt {
                guard let parsed = SyncEndpoint.parse(serveAt, allowsPortZero: true) ?? Self.portOnly(serveAt) else {
                    throw ValidationError("--sync-serve=ADDR:PORT needs an IP address and a port 0 to 65535 (0: a free one) (got '\(serveAt)')")
                }
                endpoint = parsed
            }
            settings = SyncSettings(role: .leader(endpoint: endpoint))
            if let syncLatency {
                guard (10...5000).contains(syncLatency) else { throw ValidationError("--sync-latency must be between 10 and 5000 ms (got \(syncLatency))") }
                settings.latency = .milliseconds(syncLatency)
            }
        } else if let syncTo {
            guard let leader = SyncEndpoint.parse(syncTo) else {
                throw ValidationError("--sync-to needs HOST:PORT, the leader's --sync-serve address (got '\(syncTo)')")
            }
            var clock: SyncEndpoint?
            if let syncClock {
                guard let parsed = SyncEndpoint.parse(syncClock) else { throw ValidationError("--sync-clock needs HOST:PORT (got '\(syncClock)')") }
                clock = parsed
            }
            settings = SyncSettings(role: .follower(leader: leader, clock: clock))
        } else {
            return nil
        }
        return settings
    }

    /// `--sync-serve=PORT`: every interface, that port.
    private static func portOnly(_ text: String) -> SyncEndpoint? {
        guard let port = UInt16(text) else { return nil }
        return SyncEndpoint(host: defaultServe.host, port: port)
    }
}
