import Foundation
import StreamingQoE

/// What one `gstplay-bench child abr …` run reports, one JSON object on stdout at its
/// end; the harness decodes it with the same type. Times are `CLOCK_MONOTONIC` seconds, the clock
/// of the test server's request log. Any thread.
struct ABRChildRecord: Codable, Sendable {
    /// Which player: `gstplay-buffer`, `gstplay-throughput` or `playbin`.
    var player: String
    /// When the load was asked for.
    var loadTime: Double
    /// When the pipeline first reached PLAYING (nil: never).
    var playingTime: Double?
    /// When the run ended (before teardown).
    var endTime: Double
    /// The playback position every ~100 ms (Backend: its position ticks at 100 ms; playbin: a
    /// position query every 100 ms).
    var samples: [PositionSample]
    /// The player's own buffer level when it has one (`AdaptiveInfo.bufferSeconds`), for reference.
    var ownBuffer: [PositionSample] = []
    /// The stalls the player itself reported (the Backend's `stallStarted`/`stallEnded`;
    /// playbin: held in PAUSED for BUFFERING after it first played): (start, end).
    var ownStalls: [PlayedSession.Stall] = []
    /// An error the pipeline posted, if any (the run goes on until its end).
    var error: String?
}

/// `child abr --player P --seconds S URI`: plays an adaptive stream for S seconds and prints an
/// ``ABRChildRecord``. Players: `gstplay-buffer` / `gstplay-throughput` (the Backend's `Player`
/// with `AdaptivePolicy.rule` `.bufferAware` / `.throughput`), `playbin` (a bare playbin with
/// gst-play's buffering policy and playbin's own adaptivedemux heuristic).
enum ABRChild {
    static let players = ["gstplay-buffer", "gstplay-throughput", "playbin"]

    /// Seconds the teardown may take after the record is out; a longer one exits with status 4.
    static let teardownLimit = 10.0

    static func run(_ arguments: ChildArguments) throws -> Int32 {
        guard let uri = arguments.positional.first else { throw BenchError("missing URI") }
        let player = arguments.options["player"] ?? "gstplay-buffer"
        let seconds = try arguments.double("seconds", default: 20)
        let played: (record: ABRChildRecord, teardown: () -> Void)
        switch player {
        case "gstplay-buffer": played = try ABRBackendChild.run(uri: uri, rule: .bufferAware, name: player, seconds: seconds)
        case "gstplay-throughput": played = try ABRBackendChild.run(uri: uri, rule: .throughput, name: player, seconds: seconds)
        case "playbin": played = try ABRPlaybinChild.run(uri: uri, seconds: seconds)
        default: throw BenchError("--player takes one of \(players.joined(separator: ", ")), not '\(player)'")
        }
        // The record goes out before the teardown, so a teardown that hangs loses no measurement
        // (and is reported: exit status 4 after `teardownLimit`).
        FileHandle.standardOutput.write(try JSONEncoder().encode(played.record) + Data("\n".utf8))
        let limit = teardownLimit
        DispatchQueue.global().asyncAfter(deadline: .now() + limit) {
            FileHandle.standardError.write(Data("gstplay-bench child abr \(player): teardown did not finish in \(Int(limit)) s\n".utf8))
            _exit(4)
        }
        played.teardown()
        return 0
    }
}
