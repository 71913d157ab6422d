import Backend
import Foundation
import Synchronization

/// The cache target: a second play of a cached 30 s clip makes zero HTTP requests and starts at
/// least as fast as a local file. The 30 s bench clip is served by the tests' `http_test_server.py`
/// (`--media` = the clip directory); a first Backend play with a fresh ``MediaCache`` downloads and
/// stores it; then cached plays of the URL and plays of the local file alternate, each timed from
/// `load` to PLAYING (fake sinks, `sync=true`), and the server's request log is read after each.
enum CacheCase {
    static func run(_ context: BenchContext) -> CaseOutcome {
        let rounds = context.options.smoke ? 2 : 7
        let directory = NSTemporaryDirectory() + "gstplay-bench-cache-\(getpid())"
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let clip = context.thirtySecondClip
        let name = URL(fileURLWithPath: clip).lastPathComponent
        var check = TargetCheck(target: "cached 30 s clip: 0 requests, start ≤ local file", measured: "—",
                                status: .notMeasured("the server or the first download failed"), why: "")
        guard let server = try? BenchServer(script: "Tests/TestSupport/http_test_server.py",
                                            arguments: ["--media", URL(fileURLWithPath: clip).deletingLastPathComponent().path]) else {
            return CaseOutcome(sections: [ReportSection(title: "Media cache", body: "The test server did not start.\n")], targets: [check])
        }
        defer { server.stop() }
        let cache = MediaCache(directory: directory)
        let url = server.url("/file/\(name)")
        let stored = play(url, cache: cache, until: { if case .status(let s)? = $0.payload(as: CacheEvent.self) { return s.state == .stored || s.state == .discarded } else { return false } })
        let firstRequests = server.requestCount()
        guard (try? cache.lookup(url)) != nil else {
            return CaseOutcome(sections: [ReportSection(title: "Media cache", body: "The first play did not store the clip (\(stored.map { "\($0) s" } ?? "timed out")).\n")], targets: [check])
        }
        var cached: [Double] = [], local: [Double] = [], requests: [Int] = []
        let fileURI = URL(fileURLWithPath: clip).absoluteString
        for _ in 0..<rounds {
            if let seconds = play(url, cache: cache, until: isPlaying) { cached.append(seconds) }
            requests.append(server.requestCount())
            if let seconds = play(fileURI, cache: nil, until: isPlaying) { local.append(seconds) }
        }
        let cachedSummary = Summary(cached), localSummary = Summary(local)
        let rows = [["cached URL (`\(name)` over http, 2nd+ play)", "\(cached.count)/\(rounds)", Markdown.spread(cachedSummary, 1, scale: 1000), "\(requests.reduce(0, +))"],
                    ["local file", "\(local.count)/\(rounds)", Markdown.spread(localSummary, 1, scale: 1000), "—"]]
        var body = """
            First play (download and store, \(firstRequests) request(s)): stored after \(stored.map { Markdown.number($0, 2) } ?? "—") s. \
            Then \(rounds) interleaved rounds, `load` → PLAYING with the Backend (fake sinks, sync=true).

            """ + "\n"
        body += Markdown.table(["play", "runs ok", "load → PLAYING ms, median (min–max)", "HTTP requests"], rows)
        if let c = cachedSummary, let l = localSummary {
            let total = requests.reduce(0, +)
            check.measured = "\(total) requests; \(Markdown.number(c.median * 1000, 1)) vs \(Markdown.number(l.median * 1000, 1)) ms (\(Markdown.ratio(c.median / l.median)))"
            check.status = total == 0 && c.median <= l.median ? .met : .notMet
            check.why = "A hit gives playbin the cached file's file:// URI, so both rows open the same bytes from disk; the local file's own runs spread over \(Markdown.number((l.max - l.min) * 1000, 1)) ms."
            context.evidence.record("cache.cached", c.median * 1000)
            context.evidence.record("cache.local", l.median * 1000)
        }
        return CaseOutcome(sections: [ReportSection(title: "Media cache", body: body)], targets: [check])
    }

    private static let isPlaying: @Sendable (PlayerEvent) -> Bool = { if case .stateChanged(_, .playing) = $0 { return true } else { return false } }

    /// Loads `uri` in a new player and returns the seconds until an event matches `until` (nil after 60 s).
    private static func play(_ uri: String, cache: MediaCache?, until: @escaping @Sendable (PlayerEvent) -> Bool) -> Double? {
        var configuration = PlayerConfiguration()
        configuration.videoSink = .description("fakesink sync=true")
        configuration.audioSink = .description("fakesink sync=true")
        var standard = StandardFeatures()
        standard.cache = cache
        let watcher = EventWatcher(until)
        let player = Player(configuration: configuration, standard: standard, delegate: watcher)
        let start = MonotonicClock.now()
        player.load(uri)
        while watcher.matchedAt == nil && MonotonicClock.now() - start < 60 { usleep(2_000) }
        player.shutdown()
        return watcher.matchedAt.map { $0 - start }
    }
}

/// Records when an event first matches (loop thread).
private final class EventWatcher: PlayerDelegate {
    private let predicate: @Sendable (PlayerEvent) -> Bool
    private let matched = Mutex<Double?>(nil)
    init(_ predicate: @escaping @Sendable (PlayerEvent) -> Bool) { self.predicate = predicate }
    var matchedAt: Double? { matched.withLock { $0 } }
    func player(_ player: Player, didReceive event: PlayerEvent) {
        if predicate(event) { matched.withLock { if $0 == nil { $0 = MonotonicClock.now() } } }
    }
}
