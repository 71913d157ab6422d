/// The throughput estimate of the buffer-aware rule: the **harmonic mean** of the
/// throughput of the last ``capacity`` finished fragment downloads, measured on the demuxer's own
/// `adaptive-streaming-statistics` (`fragment-size`, `fragment-download-time`).
///
/// Why harmonic and not the EWMA of `BandwidthEstimator`: the harmonic mean of rates is the rate
/// of the whole window (total bits over total time, for equal-sized fragments), so one fragment
/// that arrived in a burst (a fast first chunk, a cached response) cannot lift it much, while one
/// slow fragment pulls it down at once — the robust estimator of MPC (Yin et al., SIGCOMM 2015)
/// and FESTIVE. Over N = 5 fragments (10 s of media on 2 s fragments) it follows a step within a
/// fragment or two and does not chase single-fragment noise.
///
/// Also keeps the media length of the recent fragments, estimated as `bytes × 8 / bitrate` of the
/// variant each came from (`AVERAGE-BANDWIDTH`, else `BANDWIDTH`): the demuxer's statistics carry
/// no media duration, and the rule needs "one fragment" in seconds.
///
/// Pure value; `VariantSelector` feeds it under its lock on the demuxer's streaming thread.
public struct ThroughputHistory: Sendable, Hashable {
    /// One finished download.
    public struct Sample: Sendable, Hashable {
        /// Bits/s of this download (with the time floored at ``ThroughputHistory/minimumSeconds``).
        public var bitsPerSecond: Double
        /// The media it carried, in seconds, when the variant's bitrate was known.
        public var mediaSeconds: Double?
    }

    /// How many downloads the mean covers (N).
    public static let capacity = 5
    /// Downloads shorter than this (seconds) count with this duration: on a local link a fragment
    /// arrives in microseconds and the raw rate is meaningless (as `BandwidthEstimator`).
    public static let minimumSeconds = 0.005
    /// The fragment length assumed before any fragment's media length is known, seconds.
    public static let defaultFragmentSeconds = 2.0

    /// The last downloads, oldest first (at most ``capacity``).
    public private(set) var samples: [Sample] = []

    /// An empty history.
    public init() {}

    /// Adds a finished download of `bytes` in `seconds`, from a variant of `bitrate` bits/s (nil
    /// when unknown). Empty or negative downloads are ignored.
    public mutating func add(bytes: Int, seconds: Double, bitrate: Int?) {
        guard bytes > 0, seconds >= 0 else { return }
        let bits = Double(bytes) * 8
        let media = bitrate.flatMap { $0 > 0 ? bits / Double($0) : nil }
        samples.append(Sample(bitsPerSecond: bits / max(seconds, Self.minimumSeconds), mediaSeconds: media))
        if samples.count > Self.capacity { samples.removeFirst(samples.count - Self.capacity) }
    }

    /// How many of the last downloads ``recentHarmonicMean`` covers: the climb's short window.
    public static let recentCount = 2

    /// The harmonic mean of the window's rates, bits/s; nil before the first download.
    public var harmonicMean: Double? { harmonicMean(ofLast: Self.capacity) }

    /// The harmonic mean of the last ``recentCount`` downloads' rates, bits/s (fewer when fewer
    /// are known); nil before the first download. The buffer-aware rule climbs on it over a
    /// healthy buffer (``BufferAwareRule/climbCushionFragments``).
    public var recentHarmonicMean: Double? { harmonicMean(ofLast: Self.recentCount) }

    /// The harmonic mean of the last `count` downloads' rates (all, when fewer), bits/s.
    private func harmonicMean(ofLast count: Int) -> Double? {
        let window = samples.suffix(max(count, 1))
        guard !window.isEmpty else { return nil }
        return Double(window.count) / window.reduce(0) { $0 + 1 / $1.bitsPerSecond }
    }

    /// The media length of one fragment, seconds: the median over the window of the lengths
    /// known, clamped to 0.5…20 s; ``defaultFragmentSeconds`` when none is known.
    public var fragmentSeconds: Double {
        let known = samples.compactMap(\.mediaSeconds).sorted()
        guard !known.isEmpty else { return Self.defaultFragmentSeconds }
        let median = known.count % 2 == 1 ? known[known.count / 2] : (known[known.count / 2 - 1] + known[known.count / 2]) / 2
        return min(max(median, 0.5), 20)
    }

    /// Forgets every download (new stream).
    public mutating func reset() { samples = [] }
}
