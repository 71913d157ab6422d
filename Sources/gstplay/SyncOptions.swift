import ArgumentParser
import Backend

/// `--sync-serve[=ADDR:PORT]`, `--sync-to HOST:PORT`, `--sync-clock HOST:PORT`,
/// `--sync-latency MS` (docs/CLI.md, "Playing in sync"): lead or follow a sync group. Hidden
/// from `--help`, which is kept short (NewcomerCLITests); `--help-hidden` and docs/CLI.md list
/// them. Parsed by ArgumentParser on the main thread; a plain value.
struct SyncOptions: ParsableArguments {
    /// The hidden option `--sync-serve=ADDR:PORT` becomes (``FlagValueRewrite``).
    static let hiddenEndpointName = "sync-serve-at"
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
    /// (exit 2) with ``SyncSettings/fromOptions(serve:serveAt:syncTo:syncClock:latencyMilliseconds:)``'s message.
    func settings() throws -> SyncSettings? {
        do {
            return try SyncSettings.fromOptions(serve: serve, serveAt: serveAt, syncTo: syncTo, syncClock: syncClock,
                                                latencyMilliseconds: syncLatency)
        } catch { throw ValidationError(error.description) }
    }
}
