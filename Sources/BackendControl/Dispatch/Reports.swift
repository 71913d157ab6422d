import Backend
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The answer to `status`: a copy of the player's snapshot plus where we are in the playlist,
/// as reply data (``WireStatus``) and as one `key=value` text line. Pure value; any thread.
struct StatusReport: Equatable, Sendable {
    var snapshot: PlayerSnapshot
    /// 0-based playlist position of the item being played, if any.
    var index: Int?
    var count: Int
    /// The location as the user gave it.
    var location: String?

    /// The `status` reply data.
    var wire: WireStatus { WireStatus(snapshot: snapshot, index: index, count: count, location: location) }

    /// `state=playing position=0:00:01.250 duration=0:00:04.021 rate=1 volume=100% muted=no item=1/2 uri=file:///…`
    var text: String {
        var fields = [
            "state=\(snapshot.state.rawValue)",
            "position=\(snapshot.position?.formatted(fractionDigits: 3) ?? "-")",
            "duration=\(snapshot.duration?.formatted(fractionDigits: 3) ?? "-")",
            "rate=\(RateStep.text(snapshot.rate))",
            "volume=\(CFormat.whole(Wire.volumePercent(linear: snapshot.volume)))%",
            "muted=\(snapshot.muted ? "yes" : "no")",
        ]
        if snapshot.bufferingPercent < 100 { fields.append("buffering=\(snapshot.bufferingPercent)%") }
        if let size = snapshot.mediaSize { fields.append("video=\(size.width)x\(size.height)") }
        fields.append("item=\(index.map { String($0 + 1) } ?? "-")/\(count)")
        fields.append("uri=\(snapshot.uri ?? "-")")
        if let sync = snapshot.features[SyncSnapshot.self] {
            fields.append("sync=\(sync.role) leader=\(sync.leader) locked=\(sync.locked ? "yes" : "no")")
        }
        return fields.joined(separator: " ")
    }
}

/// The answer to `stats`, as reply data (``WireStatistics``) and as one text line.
/// Pure value; any thread.
struct StatisticsReport: Equatable, Sendable {
    var statistics: PlayerStatistics

    /// The `stats` reply data.
    var wire: WireStatistics { WireStatistics(statistics) }

    /// `rendered=… dropped=… position=… … video_codec="H.264 (…)"`
    var text: String {
        let s = statistics
        var fields = [
            "rendered=\(s.renderedFrames)",
            "dropped=\(s.droppedFrames)",
            "position=\(s.position?.formatted(fractionDigits: 3) ?? "-")",
            "duration=\(s.duration?.formatted(fractionDigits: 3) ?? "-")",
            "rate=\(RateStep.text(s.rate))",
            "seeks=\(s.seekCount)",
            "buffering=\(s.bufferingPercent)%",
            "buffering_time_ms=\(CFormat.whole(s.bufferingTimeMilliseconds))",
        ]
        if let latency = s.lastSeekLatencyMilliseconds { fields.append("last_seek_ms=\(CFormat.whole(latency))") }
        if let bitrate = s.bitrate { fields.append("bitrate=\(bitrate)") }
        if let average = s.averageBitrate { fields.append("average_bitrate=\(average)") }
        if let size = s.videoSize { fields.append("video=\(size.width)x\(size.height)") }
        if let codec = s.videoCodec { fields.append("video_codec=\"\(codec)\"") }
        if let codec = s.audioCodec { fields.append("audio_codec=\"\(codec)\"") }
        return fields.joined(separator: " ")
    }
}

extension ConsoleCommand {
    /// The console commands, one per line: syntax and summary in two columns (`help`, `gstplay help commands`).
    public static var usageLines: [String] {
        helpColumns(usage.map { ($0.syntax, $0.summary) })
    }

    /// Two columns, indented by two: the first as wide as its widest entry plus two spaces, so
    /// no entry runs into its summary (never `n / p, > / <next / previous item`). Pure.
    public static func helpColumns(_ rows: [(String, String)]) -> [String] {
        let width = (rows.map(\.0.count).max() ?? 0) + 2
        return rows.map { "  " + $0.0.padded(toLength: width) + $0.1 }
    }
}
