import Backend
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Synchronization

/// Adaptive streaming under a scripted bandwidth profile: the HLS ladder from
/// `Fixtures/make-fixtures.sh --hls` served by the tests' `http_test_server.py`, whose throttle
/// changes on a timetable. The Backend (in process, fake sinks) and `gst-launch-1.0 playbin`
/// run the same profile; variant switches are counted from the server's request log for both.
enum ABRCase {
    /// The profile: (seconds after the load, bytes/s for every `/hls/` response; 0 = unthrottled).
    static let profile: [(at: Double, rate: Int)] = [(0, 0), (3, 60_000), (9, 3_000), (13, 0)]
    static let runSeconds = 20.0

    static func run(_ context: BenchContext) -> CaseOutcome {
        let title = "Adaptive streaming (HLS) under a bandwidth profile"
        let hls = ProcessInfo.processInfo.environment["GSTPLAY_HLS_DIR"] ?? ".build-fixtures/hls"
        let script = "Tests/TestSupport/http_test_server.py"
        guard FileManager.default.fileExists(atPath: "\(hls)/master.m3u8"), FileManager.default.fileExists(atPath: script) else {
            return CaseOutcome(sections: [ReportSection(title: title, body: "Not run: no HLS ladder at `\(hls)` (run `make hls-fixtures`) or no `\(script)` (run from the repository root).\n")])
        }
        let rounds = context.smoke ? 1 : 3
        context.log("abr: \(rounds) round(s) × 2 players × \(Int(runSeconds)) s")
        var rows: [[String]] = []
        var backendStalls: [Double] = [], launchStalls: [Double] = []
        for round in 1...rounds {
            for player in ["backend", "gst-launch"] {
                guard let server = try? BenchServer(script: script, hls: hls) else {
                    rows.append([player, "\(round)", "server did not start", "", "", "", ""]); continue
                }
                let result = player == "backend" ? runBackend(server) : runLaunch(server)
                server.stop()
                if player == "backend" { backendStalls.append(result.stalled) } else { launchStalls.append(result.stalled) }
                rows.append([player == "backend" ? "Backend (`Player`, start lowest)" : "`gst-launch-1.0 playbin`", "\(round)",
                             result.firstFrame.map { Markdown.number($0 * 1000, 0) } ?? "—", result.firstVariant ?? "—",
                             "\(result.switches)", result.variants, Markdown.number(result.stalled, 2)])
            }
        }
        var body = """
            `/hls/vod/master.m3u8` (3 variants: 240p 0.36, 480p 1.04, 720p 2.5 Mb/s; 2 s segments) from `\(script) --hls \(hls)` on \
            127.0.0.1; every `/hls/` response is paced by the profile \(profile.map { "\(Markdown.number($0.at, 0)) s: \($0.rate == 0 ? "unthrottled" : "\($0.rate / 1000) KB/s")" }.joined(separator: ", ")); \
            each run lasts \(Int(runSeconds)) s. Fake sinks with `sync=true`. First frame: from the load (process start for gst-launch) to PLAYING \
            (the Backend's `playing` state; gst-launch's "Setting pipeline to PLAYING" line, which follows preroll). Switches: changes of \
            variant between consecutive segment requests in the server's log. Stalled: time held for buffering after playback started \
            (the Backend's `AdaptiveInfo.stalledSeconds`; gst-launch: between its "Buffering" and "Done buffering" lines after the first PLAYING).

            """ + "\n"
        body += Markdown.table(["player", "round", "first frame ms", "first segment", "switches", "variants requested, in order", "stalled s"], rows)
        if let b = Summary(backendStalls), let l = Summary(launchStalls) {
            body += "\nMedian stalled time: Backend \(Markdown.number(b.median, 2)) s, gst-launch-1.0 \(Markdown.number(l.median, 2)) s.\n"
        }
        return CaseOutcome(sections: [ReportSection(title: title, body: body)])
    }

    struct Result {
        var firstFrame: Double?
        var firstVariant: String?
        var switches = 0
        var variants = ""
        var stalled = 0.0
    }

    /// Applies the profile on a timer thread while `body` runs.
    private static func withProfile(_ server: BenchServer, _ body: () -> Void) {
        let stop = Atomic<Bool>(false)
        let started = MonotonicClock.now()
        let thread = Thread {
            for step in profile {
                while MonotonicClock.now() - started < step.at { if stop.load(ordering: .relaxed) { return }; usleep(20_000) }
                server.control("throttle?match=/hls/&rate=\(step.rate)")
            }
        }
        thread.start()
        body()
        stop.store(true, ordering: .relaxed)
    }

    private static func runBackend(_ server: BenchServer) -> Result {
        var configuration = PlayerConfiguration()
        configuration.videoSink = .description("fakesink sync=true")
        configuration.audioSink = .description("fakesink sync=true")
        let watcher = ABRWatcher()
        let player = Player(configuration: configuration, delegate: watcher)
        var result = Result()
        withProfile(server) {
            let start = MonotonicClock.now()
            player.load(server.url("/hls/vod/master.m3u8"))
            while MonotonicClock.now() - start < runSeconds { usleep(50_000) }
            result.firstFrame = watcher.playingAt.map { $0 - start }
            result.stalled = player.adaptiveInfo.stalledSeconds
        }
        player.shutdown()
        server.summarise(into: &result)
        return result
    }

    private static func runLaunch(_ server: BenchServer) -> Result {
        var result = Result()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["gst-launch-1.0", "playbin", "uri=\(server.url("/hls/vod/master.m3u8"))",
                             "video-sink=fakesink sync=true", "audio-sink=fakesink sync=true"]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        let lines = Mutex<[(Double, String)]>([])
        withProfile(server) {
            let start = MonotonicClock.now()
            guard (try? process.run()) != nil else { return }
            let reader = Thread {
                var pending = Data()
                while true {
                    let chunk = pipe.fileHandleForReading.availableData
                    if chunk.isEmpty { break }
                    pending.append(chunk)
                    // gst-launch ends its "buffering... N%" progress with \r, its other lines with \n.
                    while let newline = pending.firstIndex(where: { $0 == UInt8(ascii: "\n") || $0 == UInt8(ascii: "\r") }) {
                        let line = String(decoding: pending[pending.startIndex..<newline], as: UTF8.self)
                        pending.removeSubrange(pending.startIndex...newline)
                        lines.withLock { $0.append((MonotonicClock.now() - start, line)) }
                    }
                }
            }
            reader.start()
            while MonotonicClock.now() - start < runSeconds && process.isRunning { usleep(50_000) }
            if process.isRunning { process.interrupt() }
            process.waitUntilExit()
        }
        let seen = lines.withLock { $0 }
        let playing = seen.first { $0.1.contains("Setting pipeline to PLAYING") }?.0
        result.firstFrame = playing
        var since: Double?
        for (at, line) in seen where playing.map({ at > $0 }) ?? false {
            if line.hasPrefix("Buffering"), since == nil { since = at }
            if line.hasPrefix("Done buffering"), let began = since { result.stalled += at - began; since = nil }
        }
        if let began = since { result.stalled += runSeconds - began }
        server.summarise(into: &result)
        return result
    }
}

/// Records when the player first reaches PLAYING (loop thread).
private final class ABRWatcher: PlayerDelegate {
    private let playing = Mutex<Double?>(nil)
    var playingAt: Double? { playing.withLock { $0 } }
    func player(_ player: Player, didReceive event: PlayerEvent) {
        if case .stateChanged(_, .playing) = event { playing.withLock { if $0 == nil { $0 = MonotonicClock.now() } } }
    }
}

/// `http_test_server.py --hls DIR` (or with other arguments, e.g. `--media DIR`) for one run:
/// its port, its /control endpoints, its request log. Used by the `abr` and `cache` cases.
final class BenchServer: @unchecked Sendable {
    private let process = Process()
    private let input = Pipe()
    let port: Int

    convenience init(script: String, hls: String) throws { try self.init(script: script, arguments: ["--hls", hls]) }

    init(script: String, arguments: [String]) throws {
        let output = Pipe()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", script] + arguments
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        var line = Data()
        while !line.contains(UInt8(ascii: "\n")) {
            let byte = output.fileHandleForReading.readData(ofLength: 1)
            if byte.isEmpty { break }
            line.append(byte)
        }
        let text = String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard text.hasPrefix("PORT "), let port = Int(text.dropFirst(5)) else { process.terminate(); throw CocoaError(.fileReadUnknown) }
        self.port = port
    }

    func url(_ path: String) -> String { "http://127.0.0.1:\(port)\(path)" }
    func control(_ query: String) { _ = try? Data(contentsOf: URL(string: url("/control/\(query)"))!) }

    /// How many requests the server logged (then clears the log).
    func requestCount() -> Int {
        guard let data = try? Data(contentsOf: URL(string: url("/log?clear=1"))!),
              let list = try? JSONSerialization.jsonObject(with: data) as? [Any] else { return -1 }
        return list.count
    }

    /// First variant, switches and the variant sequence from the request log.
    func summarise(into result: inout ABRCase.Result) {
        struct Request: Decodable { var path: String; var status: Int? }
        guard let data = try? Data(contentsOf: URL(string: url("/log"))!),
              let requests = try? JSONDecoder().decode([Request].self, from: data) else { return }
        let variants = requests.compactMap { request -> String? in
            guard request.path.hasPrefix("/hls/"), request.path.hasSuffix(".ts"), request.status == 200 else { return nil }
            let parts = request.path.split(separator: "/")
            return parts.count >= 2 ? String(parts[parts.count - 2]) : nil
        }
        result.firstVariant = variants.first
        var runs: [(String, Int)] = []
        for v in variants { if runs.last?.0 == v { runs[runs.count - 1].1 += 1 } else { runs.append((v, 1)) } }
        result.switches = max(0, runs.count - 1)
        result.variants = runs.map { "\($0.0)×\($0.1)" }.joined(separator: " → ")
    }

    func stop() {
        try? input.fileHandleForWriting.close()
        process.waitUntilExit()
    }
}
