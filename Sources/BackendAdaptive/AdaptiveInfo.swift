import BackendCore

/// One rendition of an adaptive stream, from an `#EXT-X-STREAM-INF` line of the master playlist.
///
/// A plain value, built by the feature's playlist and manifest readers and safe to pass anywhere.
public struct Variant: Sendable, Hashable, Codable {
    /// Position in ``AdaptiveInfo/variants`` (sorted by bandwidth, lowest first).
    public var index: Int
    /// `BANDWIDTH`: the peak bitrate in bits/s.
    public var bandwidth: Int
    /// `AVERAGE-BANDWIDTH` in bits/s, when the playlist gives it.
    public var averageBandwidth: Int?
    /// `RESOLUTION` width, when given.
    public var width: Int?
    /// `RESOLUTION` height, when given.
    public var height: Int?
    /// `CODECS`, e.g. `avc1.42c01f,mp4a.40.2`, when given.
    public var codecs: String?
    /// The media playlist URI, resolved against the master playlist's URI.
    public var uri: String

    /// Creates the value.
    public init(index: Int, bandwidth: Int, averageBandwidth: Int? = nil, width: Int? = nil, height: Int? = nil,
                codecs: String? = nil, uri: String) {
        self.index = index
        self.bandwidth = bandwidth
        self.averageBandwidth = averageBandwidth
        self.width = width
        self.height = height
        self.codecs = codecs
        self.uri = uri
    }

    /// A short label for people: `480p 1.0 Mb/s` (or just the bitrate without a resolution).
    public var label: String {
        let rate = Variant.formatBitrate(bandwidth)
        return height.map { "\($0)p \(rate)" } ?? rate
    }

    /// `1.0 Mb/s`, `364 kb/s`.
    public static func formatBitrate(_ bitsPerSecond: Int) -> String {
        if bitsPerSecond >= 1_000_000 {
            let tenths = (Double(bitsPerSecond) / 100_000).rounded() / 10
            return "\(tenths) Mb/s"
        }
        return "\(Int((Double(bitsPerSecond) / 1000).rounded())) kb/s"
    }
}

/// Why the variant changed (``AdaptiveEvent/variantSwitched(from:to:reason:)``).
public enum VariantSwitchReason: String, Sendable, Hashable, Codable {
    /// The first variant of the stream (``AdaptivePolicy/Start``).
    case start
    /// The estimated bandwidth allows a higher variant.
    case bandwidthUp
    /// The estimated bandwidth no longer sustains the current variant.
    case bandwidthDown
    /// A bitrate or height cap was set or changed.
    case cap
    /// The user pinned a variant (`Player.pinVariant(_:)`).
    case pinned
    /// The demuxer switched on its own (no policy decision preceded it).
    case demuxer
}

/// One finished segment download, from the demuxer's `adaptive-streaming-statistics` message.
public struct SegmentDownload: Sendable, Hashable, Codable {
    /// The segment URI.
    public var uri: String
    /// Index of the variant it belongs to, when its URI matches a variant's directory.
    public var variant: Int?
    /// Media sequence number parsed from the segment name, when it has one (`segment00012.ts` → 12).
    public var sequence: Int?
    /// Bytes downloaded.
    public var bytes: Int
    /// Wall time the download took, in seconds.
    public var seconds: Double

    /// Creates the value.
    public init(uri: String, variant: Int?, sequence: Int?, bytes: Int, seconds: Double) {
        self.uri = uri
        self.variant = variant
        self.sequence = sequence
        self.bytes = bytes
        self.seconds = seconds
    }

    /// Throughput of this download in bits/s (nil when the time is zero).
    public var bitsPerSecond: Double? { seconds > 0 ? Double(bytes) * 8 / seconds : nil }
}

/// Everything known about the adaptive stream being played; `Player.adaptiveInfo` returns it.
///
/// Built on the loop thread by `AdaptiveMonitor`; a snapshot, safe to read from any thread.
public struct AdaptiveInfo: Sendable, Hashable, Codable {
    /// The variants of the master playlist, lowest bandwidth first (empty until it was read).
    public var variants: [Variant] = []
    /// Index of the variant being downloaded now, when known.
    public var current: Int?
    /// Bandwidth estimated from the segment downloads, in bits/s.
    public var estimatedBandwidth: Int?
    /// Media buffered ahead of the playback position, in seconds (decoder queues, or the demuxer's level).
    public var bufferSeconds: Double?
    /// The latest segment downloads (at most ``AdaptiveInfo/downloadHistory``), oldest first.
    public var downloads: [SegmentDownload] = []
    /// The latest ABR decisions that changed the variant asked for (at most
    /// ``AdaptiveInfo/downloadHistory``), oldest first, with the buffer and estimate they were made on.
    public var decisions: [ABRDecision] = []
    /// The stream is live (a media playlist without `#EXT-X-ENDLIST`).
    public var isLive = false
    /// A live stream's DVR window in stream time (`GST_QUERY_SEEKING` start/end), nil when not
    /// live or not seekable. Absolute seeks on a live stream count from ``liveWindowStart``.
    public var liveWindowStart: MediaTime?
    /// The end of the DVR window (the newest seekable point).
    public var liveWindowEnd: MediaTime?
    /// The user pinned this variant (nil: automatic selection).
    public var pinned: Int?
    /// True while playback is held because the buffer ran dry (between the stall events).
    public var stalled = false
    /// Stalls since the load.
    public var stallCount = 0
    /// Time spent stalled since the load, in seconds.
    public var stalledSeconds: Double = 0
    /// Segment or media-playlist requests answered with an HTTP error status since the load.
    public var failedRequests = 0
    /// Variant switches since the load (the first variant is not a switch).
    public var switchCount = 0
    /// The seed's ABR metrics: `MaxProfile`, `RequestedProfile` (bits/s) and the requested segment.
    public var metrics = ABRMetrics()

    /// How many segment downloads ``downloads`` keeps.
    public static let downloadHistory = 16

    /// Empty information (no adaptive stream).
    public init() {}

    /// The current variant, when known.
    public var currentVariant: Variant? { current.flatMap { $0 < variants.count ? variants[$0] : nil } }
}

/// The seed 004 ABR metrics, raised for every segment request.
public struct ABRMetrics: Sendable, Hashable, Codable {
    /// `MaxProfile`: bandwidth of the highest variant the policy may choose (caps applied), bits/s.
    public var maxProfile: Int?
    /// `RequestedProfile`: bandwidth of the variant whose segment was requested last, bits/s.
    public var requestedProfile: Int?
    /// `Requested.Segment`: URI of the last segment requested.
    public var requestedSegment: String?
    /// Media sequence number of the requested segment, when its name carries one.
    public var requestedSequence: Int?

    /// No metrics yet.
    public init() {}
}
