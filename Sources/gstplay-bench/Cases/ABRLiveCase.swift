import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import StreamingQoE
import Synchronization

/// The live case: live HLS (the test server's sliding-window playlist,
/// `/hls/live-K/…`: six 2 s segments advancing with wall time, the ladder looping) through one
/// committed bandwidth trace, played by gstplay's `Player` (its ABR and live-edge guard) and by a
/// bare `playbin` (adaptivedemux's default ABR, gst-launch's buffering policy). The two run at
/// the same time, in this process, each against its own `http_test_server.py` (the trace clock is
/// per server). Reports startup, stalls, the latency to the live edge (mean, max) and the average
/// bitrate and switches from each server's request log.
///
/// Self-contained: `gstplay-bench --only abr-live`; `GSTPLAY_ABR_LIVE_TRACE` (default `step-down`,
/// a name in `Fixtures/traces`), `GSTPLAY_ABR_LIVE_SECONDS` (default 60; 20 with `--smoke`),
/// `GSTPLAY_ABR_LIVE_RUNS` (default 3; 1 with `--smoke`), `GSTPLAY_HLS_DIR` (the ladder).
enum ABRLiveCase {
    /// One player's row of one round.
    struct Row {
        var player: String
        var round: Int
        var run: ABRLivePlayers.Run
        var log: LiveLog
    }

    static func run(_ context: BenchContext) -> CaseOutcome {
        let title = "Adaptive streaming: live HLS, latency to the live edge"
        let environment = ProcessInfo.processInfo.environment
        let hls = environment["GSTPLAY_HLS_DIR"] ?? ".build-fixtures/hls"
        let script = "Tests/TestSupport/http_test_server.py"
        let traceName = environment["GSTPLAY_ABR_LIVE_TRACE"] ?? "step-down"
        let seconds = Double(environment["GSTPLAY_ABR_LIVE_SECONDS"] ?? "") ?? (context.smoke ? 20 : 60)
        let rounds = Int(environment["GSTPLAY_ABR_LIVE_RUNS"] ?? "") ?? (context.smoke ? 1 : 3)
        guard FileManager.default.fileExists(atPath: "\(hls)/master.m3u8"), FileManager.default.fileExists(atPath: script),
              let trace = try? BandwidthTrace(contentsOf: URL(fileURLWithPath: "Fixtures/traces/\(traceName).txt")) else {
            return CaseOutcome(sections: [ReportSection(title: title, body: "Not run: no HLS ladder at `\(hls)` (`make hls-fixtures`), no `\(script)` or no trace `Fixtures/traces/\(traceName).txt` (run from the repository root).\n")])
        }
        let ladder = LiveLog.ladder(master: "\(hls)/master.m3u8")
        context.log("abr-live: \(rounds) round(s) × 2 players at once × \(Int(seconds)) s, trace \(traceName)")
        var rows: [Row] = []
        for round in 1...rounds {
            let players: [(String, @Sendable (String, Double) -> ABRLivePlayers.Run)] = [
                ("gstplay", ABRLivePlayers.gstplay), ("playbin", ABRLivePlayers.playbin),
            ]
            let results = Mutex<[Row]>([])
            let group = DispatchGroup()
            for (name, play) in players {
                group.enter()
                Thread {
                    defer { group.leave() }
                    guard let server = try? BenchServer(script: script, hls: hls) else { return }
                    defer { server.stop() }
                    server.control("trace?steps=\(trace.queryValue)&rtt=20")
                    let run = play(server.url("/hls/live-\(UUID().uuidString)/master.m3u8"), seconds)
                    let log = LiveLog(server: server, ladder: ladder)
                    results.withLock { $0.append(Row(player: name, round: round, run: run, log: log)) }
                }.start()
            }
            group.wait()
            rows += results.withLock { $0 }.sorted { $0.player < $1.player }
        }
        return CaseOutcome(sections: [ReportSection(title: title, body: report(rows, trace: traceName, seconds: seconds, script: script, hls: hls))])
    }

    private static func report(_ rows: [Row], trace: String, seconds: Double, script: String, hls: String) -> String {
        var body = """
            `/hls/live-K/master.m3u8` from `\(script) --hls \(hls)` (the ladder's 2 s segments as a sliding window of six, \
            advancing with wall time), every response shaped to `Fixtures/traces/\(trace).txt` from its start (20 ms added RTT); \
            \(Int(seconds)) s per run; gstplay and the bare playbin play at the same time, each from its own server. Fake sinks, \
            `sync=true`. Startup: load to the first PLAYING. Stalls: buffering holds after that. Latency: to the live edge (the \
            end of the `GST_QUERY_SEEKING` window, which `hlsdemux` puts three segments before the playlist's newest, moved on \
            by the wall time since it last advanced), sampled every 250 ms after startup; gstplay keeps it within 3 segments + \
            its startup buffer = 8 s by a catch-up seek. Bitrate: mean `BANDWIDTH` of the segments requested (server log).

            """ + "\n"
        let table = rows.map { row -> [String] in
            let latency = Summary(row.run.latencies)
            return [row.player, "\(row.round)", row.run.startup.map { Markdown.number($0, 2) } ?? "—", "\(row.run.stalls)",
                    Markdown.number(row.run.stalled, 2), latency.map { Markdown.number($0.mean, 2) } ?? "—",
                    latency.map { Markdown.number($0.max, 2) } ?? "—", row.log.meanKbps.map { Markdown.number($0, 0) } ?? "—",
                    "\(row.log.switches)", row.run.catchUps.map(String.init) ?? "—", row.run.error ?? ""]
        }
        body += Markdown.table(["player", "round", "startup s", "stalls", "stalled s", "latency mean s", "latency max s",
                                "avg bitrate kbit/s", "switches", "catch-ups", "error"], table)
        for player in ["gstplay", "playbin"] {
            let mine = rows.filter { $0.player == player }
            guard let stalled = Summary(mine.map(\.run.stalled)), let maxLatency = Summary(mine.compactMap { $0.run.latencies.max() }),
                  let bitrate = Summary(mine.compactMap(\.log.meanKbps)) else { continue }
            body += "\n\(player): median stalled \(Markdown.number(stalled.median, 2)) s, median max latency \(Markdown.number(maxLatency.median, 2)) s, "
                + "median bitrate \(Markdown.number(bitrate.median, 0)) kbit/s over \(mine.count) run(s).\n"
        }
        return body
    }
}

/// The segments one server logged: the mean bitrate requested and the switches.
struct LiveLog: Sendable {
    var meanKbps: Double?
    var switches = 0

    /// Variant directory → `BANDWIDTH` (bits/s), from the master playlist.
    static func ladder(master: String) -> [String: Double] {
        guard let text = try? String(contentsOfFile: master, encoding: .utf8) else { return [:] }
        var result: [String: Double] = [:], pending: Double?
        for line in text.split(separator: "\n") {
            if line.hasPrefix("#EXT-X-STREAM-INF"), let range = line.range(of: #"(?<![-A-Z])BANDWIDTH=(\d+)"#, options: .regularExpression) {
                pending = Double(line[range].split(separator: "=")[1])
            } else if !line.hasPrefix("#"), let bandwidth = pending {
                result[String(line.split(separator: "/")[0])] = bandwidth
                pending = nil
            }
        }
        return result
    }

    init(server: BenchServer, ladder: [String: Double]) {
        struct Request: Decodable { var path: String; var status: Int? }
        guard let data = try? Data(contentsOf: URL(string: server.url("/log"))!),
              let requests = try? JSONDecoder().decode([Request].self, from: data) else { return }
        let variants = requests.compactMap { r -> String? in
            guard r.path.hasPrefix("/hls/"), r.path.hasSuffix(".ts"), r.status == 200 else { return nil }
            let parts = r.path.split(separator: "/")
            return parts.count >= 2 ? String(parts[parts.count - 2]) : nil
        }
        let rates = variants.compactMap { ladder[$0] }
        meanKbps = rates.isEmpty ? nil : rates.reduce(0, +) / Double(rates.count) / 1000
        switches = zip(variants, variants.dropFirst()).filter { $0 != $1 }.count
    }
}
