import Backend

/// The adaptive-streaming part of the `--json` protocol: the `variants`, `variant` and `stall`
/// events, the `variants` reply and the `abr` statistics fields. Pure; any thread.
public enum WireAdaptive {
    /// One variant: index (for `variant N`), label, bitrates, size, codecs, playlist URI.
    public struct Variant: Encodable, Equatable, Sendable {
        /// The variant's index (what `variant N` takes).
        public var index: Int
        /// Its label, e.g. `480p 1.0 Mb/s`.
        public var label: String
        /// Its declared bandwidth, in bits per second.
        public var bandwidth: Int
        /// Its average bandwidth (null: not declared).
        @Nullable public var averageBandwidth: Int?
        /// Its width in pixels (null: not declared).
        @Nullable public var width: Int?
        /// Its height in pixels (null: not declared).
        @Nullable public var height: Int?
        /// Its codecs string (null: not declared).
        @Nullable public var codecs: String?
        /// Its playlist's URI.
        public var uri: String

        /// The fields of `v`.
        public init(_ v: Backend.Variant) {
            index = v.index
            label = v.label
            bandwidth = v.bandwidth
            averageBandwidth = v.averageBandwidth
            width = v.width
            height = v.height
            codecs = v.codecs
            uri = v.uri
        }
    }
    /// `variants` event: `{"event":"variants","variants":[…]}`.
    public struct Variants: Encodable, Equatable, Sendable { var variants: [Variant] }
    /// `variant` event: the switch, with the previous variant's index (null for the first).
    public struct Switch: Encodable, Sendable {
        @Nullable package var from: Int?
        package var to: Variant
        package var reason: String
    }
    /// `stall` event: `started`, or `ended` with its length in seconds.
    public struct Stall: Encodable, Sendable {
        package var phase: String
        @Nullable package var seconds: Double?
    }
    /// `live-catch-up` event: how far behind the live edge playback was, in seconds, when it seeked to it.
    public struct LiveCatchUp: Encodable, Sendable { var latency: Double }
    /// The `variants` reply: the list, the current index, the pin, the estimate.
    public struct Reply: Encodable, Equatable, Sendable {
        /// Every variant.
        public var variants: [Variant]
        /// The variant playing (null: not known yet).
        @Nullable public var current: Int?
        /// The variant pinned by `variant N` (null: automatic).
        @Nullable public var pinned: Int?
        /// The bandwidth estimate, in bits per second (null: none yet).
        @Nullable public var estimatedBandwidth: Int?
        /// Media buffered ahead, in seconds (null: unknown).
        @Nullable public var bufferSeconds: Double?
        /// Whether the stream is live.
        public var live: Bool

        /// The fields of `info`.
        public init(_ info: AdaptiveInfo) {
            variants = info.variants.map(Variant.init)
            current = info.current
            pinned = info.pinned
            estimatedBandwidth = info.estimatedBandwidth
            bufferSeconds = info.bufferSeconds.map { Wire.rounded($0, digits: 3) }
            live = info.isLive
        }
    }
    /// Seed 004's ABR metrics inside `statistics`: `max_profile`, `requested_profile`, `requested_segment`.
    public struct Metrics: Encodable, Equatable, Sendable {
        @Nullable package var maxProfile: Int?
        @Nullable package var requestedProfile: Int?
        @Nullable package var requestedSegment: String?
        @Nullable package var requestedSequence: Int?

        package init(_ m: ABRMetrics) {
            maxProfile = m.maxProfile
            requestedProfile = m.requestedProfile
            requestedSegment = m.requestedSegment
            requestedSequence = m.requestedSequence
        }
    }

    /// The line for one `AdaptiveEvent`.
    public static func line(for event: AdaptiveEvent) -> String {
        switch event {
        case .variantsAvailable(let variants):
            return Wire.line(WireEvent(event: "variants", payload: Variants(variants: variants.map(Variant.init))))
        case .variantSwitched(let from, let to, let reason):
            return Wire.line(WireEvent(event: "variant", payload: Switch(from: from?.index, to: Variant(to), reason: reason.rawValue)))
        case .stallStarted:
            return Wire.line(WireEvent(event: "stall", payload: Stall(phase: "started", seconds: nil)))
        case .stallEnded(let seconds):
            return Wire.line(WireEvent(event: "stall", payload: Stall(phase: "ended", seconds: Wire.rounded(seconds, digits: 3))))
        case .liveCatchUp(let latency):
            return Wire.line(WireEvent(event: "live-catch-up", payload: LiveCatchUp(latency: Wire.rounded(latency, digits: 3))))
        }
    }
}
