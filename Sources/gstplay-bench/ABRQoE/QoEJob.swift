import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import StreamingQoE

/// One cell of the QoE benchmark: a trace, a protocol and a run number. Its players
/// play at the same time, each in a child process of its own against a server of its own (the
/// trace clock and the link are per server), so they meet the same moment of the machine's load
/// but never share bandwidth.
struct QoEJob: Sendable {
    /// `hls` or `dash`.
    enum Streaming: String, Sendable, Codable, CaseIterable {
        case hls, dash
        /// The stream's path on the test server.
        var path: String { self == .hls ? "/hls/vod/master.m3u8" : "/hls/vod/manifest.mpd" }
    }

    var traceName: String
    var trace: BandwidthTrace
    /// Where in the trace the run starts (the smoke run starts in the middle of one), seconds.
    var traceStart: Double
    var seconds: Double
    var proto: Streaming
    var run: Int
    var players: [String]
}

/// What one player did in one job.
struct QoEPlayerRun: Sendable, Codable {
    var player: String
    /// Seconds from the trace's 0 s (the server's clock origin) to the load.
    var timeline: TimelineData
    var score: ScoreData
    /// The player's own stall figures (for reference): count and seconds.
    var ownStallCount: Int
    var ownStallSeconds: Double
    /// CPU seconds of the child process (user + system).
    var cpuSeconds: Double
    /// Why the run is not usable, nil when it is.
    var failure: String?
    /// How the child's teardown failed after it had reported (hung, killed), nil when it ended cleanly.
    var teardown: String?

    /// The series the plot draws, times in seconds from the trace's 0 s.
    struct TimelineData: Sendable, Codable {
        var loadTime: Double
        var playingTime: Double?
        var endTime: Double
        var requests: [PositionSample]   // (time, kbit/s requested)
        var buffer: [PositionSample]     // (time, seconds buffered)
        var ownBuffer: [PositionSample]  // (time, the player's own bufferSeconds)
        var stalls: [PlayedSession.Stall] = []  // as measured from the position
    }

    /// The QoE figures (``QoEScore``) the report needs.
    struct ScoreData: Sendable, Codable {
        var averageMbps: Double
        var stallCount: Int
        var stallSeconds: Double
        var startupSeconds: Double?
        var switchCount: Int
        var switchSizesMbps: [Double]
        var fragments: Int
        var qoe: Double

        init(_ score: QoEScore, fragments: Int) {
            averageMbps = score.averageMbps
            stallCount = score.stallCount
            stallSeconds = score.stallSeconds
            startupSeconds = score.startupSeconds
            switchCount = score.switchCount
            switchSizesMbps = score.switchSizesMbps
            self.fragments = fragments
            qoe = score.qoe
        }
    }
}

/// A job's results.
struct QoEJobResult: Sendable, Codable {
    var trace: String
    var proto: QoEJob.Streaming
    var run: Int
    var players: [QoEPlayerRun]
}

extension QoEJob {
    /// Runs the job: servers, trace, children, logs. Blocks its thread for `seconds` + teardown.
    func execute(ladder: QoELadder, script: String, runner: ProcessRunner, bench: String) -> QoEJobResult {
        var servers: [BenchServer?] = []
        var children: [(origin: Double, process: RunningProcess)?] = []
        for player in players {
            guard let server = try? BenchServer(script: script, hls: ladder.directory),
                  let origin = server.shape(to: trace, startingAt: traceStart) else {
                servers.append(nil); children.append(nil); continue
            }
            servers.append(server)
            let spec = ProcessSpec(executable: bench, arguments: ["child", "abr", "--player", player, "--seconds", "\(seconds)", server.url(proto.path)],
                                   timeoutSeconds: seconds + 30)
            switch runner.spawn(spec) {
            case .success(let process): children.append((origin, process))
            case .failure: children.append(nil)
            }
        }
        var runs: [QoEPlayerRun] = []
        for (index, player) in players.enumerated() {
            guard let server = servers[index], let child = children[index] else {
                runs.append(Self.failed(player, "the server or the child did not start")); servers[index]?.stop(); continue
            }
            let result = child.process.wait()
            let fetches = server.segmentFetches(ladder: ladder)
            server.stop()
            // The record is written before the teardown: a run whose teardown hung (exit 4, or
            // killed) still counts, and says so.
            guard let line = result.stdout.split(separator: "\n").last,
                  let record = try? JSONDecoder().decode(ABRChildRecord.self, from: Data(line.utf8)) else {
                runs.append(Self.failed(player, result.failureReason.map { "\($0); no record" } ?? "no record on stdout")); continue
            }
            var run = Self.playerRun(record, fetches: fetches, origin: child.origin, cpu: result.cpuSeconds)
            if !result.succeeded { run.teardown = result.failureReason }
            runs.append(run)
        }
        return QoEJobResult(trace: traceName, proto: proto, run: run, players: runs)
    }

    private static func failed(_ player: String, _ why: String) -> QoEPlayerRun {
        QoEPlayerRun(player: player, timeline: .init(loadTime: 0, playingTime: nil, endTime: 0, requests: [], buffer: [], ownBuffer: []),
                     score: .init(QoEScore(PlayedSession(fragments: [], stalls: [], startupSeconds: nil)), fragments: 0),
                     ownStallCount: 0, ownStallSeconds: 0, cpuSeconds: 0, failure: why)
    }

    /// Scores a record against the server's log; times become seconds from the trace's origin.
    static func playerRun(_ record: ABRChildRecord, fetches: [SegmentFetch], origin: Double, cpu: Double) -> QoEPlayerRun {
        func shift(_ samples: [PositionSample]) -> [PositionSample] { samples.map { .init(time: $0.time - origin, position: $0.position) } }
        let timeline = SessionTimeline(
            fetches: fetches.map { var f = $0; f.start -= origin; f.end -= origin; return f },
            samples: shift(record.samples), loadTime: record.loadTime - origin,
            playingTime: record.playingTime.map { $0 - origin }, endTime: record.endTime - origin)
        let session = timeline.session
        var failure = record.error
        if record.playingTime == nil { failure = failure ?? "never played" }
        return QoEPlayerRun(
            player: record.player,
            timeline: .init(loadTime: timeline.loadTime, playingTime: timeline.playingTime, endTime: timeline.endTime,
                            requests: timeline.requestSeries.map { .init(time: $0.time, position: $0.kbps) },
                            buffer: timeline.bufferSeries, ownBuffer: shift(record.ownBuffer), stalls: session.stalls),
            score: .init(QoEScore(session), fragments: session.fragments.count),
            ownStallCount: record.ownStalls.count, ownStallSeconds: record.ownStalls.reduce(0) { $0 + $1.seconds },
            cpuSeconds: cpu, failure: failure)
    }
}

extension BenchServer {
    /// `/control/trace`: shapes every response to `trace`, which is at `startingAt` seconds now;
    /// returns the server's monotonic time of the trace's 0 s (nil when it did not answer).
    func shape(to trace: BandwidthTrace, startingAt start: Double) -> Double? {
        struct Reply: Decodable { var origin: Double }
        guard let data = try? Data(contentsOf: URL(string: url("/control/trace?steps=\(trace.queryValue)&start=\(start)"))!) else { return nil }
        return (try? JSONDecoder().decode(Reply.self, from: data))?.origin
    }

    /// The segment downloads of the request log (`/log`), with the ladder's bitrates and durations.
    func segmentFetches(ladder: QoELadder) -> [SegmentFetch] {
        struct Entry: Decodable { var path: String; var status: Int?; var start: Double?; var end: Double?; var bytes: Int? }
        guard let data = try? Data(contentsOf: URL(string: url("/log"))!),
              let entries = try? JSONDecoder().decode([Entry].self, from: data) else { return [] }
        return entries.compactMap { entry in
            guard let start = entry.start, let segment = ladder.segment(forPath: entry.path) else { return nil }
            let complete = entry.status == 200 && entry.bytes == segment.bytes && entry.end != nil
            return SegmentFetch(sequence: segment.sequence, kbps: segment.kbps, mediaSeconds: segment.seconds,
                                start: start, end: entry.end ?? .infinity, complete: complete)
        }
    }
}
