import Foundation

/// The HLS ladder the QoE benchmark serves (`Fixtures/make-fixtures.sh --hls DIR`, HLS_SECONDS
/// long; its `manifest.mpd` is the DASH rendition of the same segments): each variant's stated
/// bitrate (the master playlist's BANDWIDTH, the same number as the MPD's `bandwidth`), each
/// segment's duration and size. Read once on the harness's main thread; immutable after.
struct QoELadder: Sendable {
    struct Segment: Sendable {
        var sequence: Int
        var seconds: Double
        var bytes: Int
        var kbps: Double
    }

    /// The `hls` directory (master.m3u8, manifest.mpd, one directory per variant).
    let directory: String
    /// Variant name (`240p`) → BANDWIDTH in kbit/s, lowest first.
    let variants: [(name: String, kbps: Double)]
    /// `240p/segment00003.ts` → the segment.
    private let segments: [String: Segment]
    /// The presentation's length, seconds.
    let seconds: Double

    init(directory: String) throws {
        self.directory = directory
        guard let master = try? String(contentsOfFile: "\(directory)/master.m3u8", encoding: .utf8) else {
            throw BenchError("no HLS ladder at \(directory)/master.m3u8")
        }
        var variants: [(String, Double)] = []
        var bandwidth: Double?
        for line in master.split(separator: "\n") {
            if line.hasPrefix("#EXT-X-STREAM-INF:"), let range = line.range(of: "BANDWIDTH=") {
                bandwidth = Double(line[range.upperBound...].prefix { $0.isNumber })
            } else if !line.hasPrefix("#"), let kbps = bandwidth.map({ $0 / 1000 }) {
                variants.append((String(line.split(separator: "/").first ?? ""), kbps))
                bandwidth = nil
            }
        }
        guard !variants.isEmpty else { throw BenchError("no variants in \(directory)/master.m3u8") }
        self.variants = variants.sorted { $0.1 < $1.1 }
        var segments: [String: Segment] = [:]
        var longest = 0.0
        for (name, kbps) in variants {
            let playlist = (try? String(contentsOfFile: "\(directory)/\(name)/playlist.m3u8", encoding: .utf8)) ?? ""
            var duration: Double?, sequence = 0, total = 0.0
            for line in playlist.split(separator: "\n") {
                if line.hasPrefix("#EXTINF:") {
                    duration = Double(line.dropFirst(8).prefix { $0 != "," })
                } else if !line.hasPrefix("#"), let seconds = duration {
                    let file = String(line)
                    let attributes = try? FileManager.default.attributesOfItem(atPath: "\(directory)/\(name)/\(file)")
                    let size = (attributes?[.size] as? NSNumber)?.intValue ?? -1
                    segments["\(name)/\(file)"] = Segment(sequence: sequence, seconds: seconds, bytes: size, kbps: kbps)
                    sequence += 1
                    total += seconds
                    duration = nil
                }
            }
            longest = max(longest, total)
        }
        self.segments = segments
        seconds = longest
    }

    /// The segment a request path names (`/hls/vod/480p/segment00007.ts`), nil for anything else.
    func segment(forPath path: String) -> Segment? {
        let parts = path.split(separator: "?").first.map { $0.split(separator: "/") } ?? []
        guard parts.count >= 2 else { return nil }
        return segments["\(parts[parts.count - 2])/\(parts[parts.count - 1])"]
    }
}
