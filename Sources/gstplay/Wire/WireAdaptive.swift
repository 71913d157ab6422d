import Backend

/// The adaptive-streaming part of the `--json` protocol: the `variants`, `variant` and `stall`
/// events, the `variants` reply and the `abr` statistics fields. Pure; any thread.
enum WireAdaptive {
    /// One variant: index (for `variant N`), label, bitrates, size, codecs, playlist URI.
    struct Variant: Encodable, Equatable, Sendable {
        var index: Int
        var label: String
        var bandwidth: Int
        @Nullable var averageBandwidth: Int?
        @Nullable var width: Int?
        @Nullable var height: Int?
        @Nullable var codecs: String?
        var uri: String

        init(_ v: Backend.Variant) {
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
    struct Variants: Encodable, Equatable, Sendable { var variants: [Variant] }
    /// `variant` event: the switch, with the previous variant's index (null for the first).
    struct Switch: Encodable, Sendable {
        @Nullable var from: Int?
        var to: Variant
        var reason: String
    }
    /// `stall` event: `started`, or `ended` with its length in seconds.
    struct Stall: Encodable, Sendable {
        var phase: String
        @Nullable var seconds: Double?
    }
    /// `live-catch-up` event: how far behind the live edge playback was, in seconds, when it seeked to it.
    struct LiveCatchUp: Encodable, Sendable { var latency: Double }
    /// The `variants` reply: the list, the current index, the pin, the estimate.
    struct Reply: Encodable, Equatable, Sendable {
        var variants: [Variant]
        @Nullable var current: Int?
        @Nullable var pinned: Int?
        @Nullable var estimatedBandwidth: Int?
        @Nullable var bufferSeconds: Double?
        var live: Bool

        init(_ info: AdaptiveInfo) {
            variants = info.variants.map(Variant.init)
            current = info.current
            pinned = info.pinned
            estimatedBandwidth = info.estimatedBandwidth
            bufferSeconds = info.bufferSeconds.map { Wire.rounded($0, digits: 3) }
            live = info.isLive
        }
    }
    /// Seed 004's ABR metrics inside `statistics`: `max_profile`, `requested_profile`, `requested_segment`.
    struct Metrics: Encodable, Equatable, Sendable {
        @Nullable var maxProfile: Int?
        @Nullable var requestedProfile: Int?
        @Nullable var requestedSegment: String?
        @Nullable var requestedSequence: Int?

        init(_ m: ABRMetrics) {
            maxProfile = m.maxProfile
            requestedProfile = m.requestedProfile
            requestedSegment = m.requestedSegment
            requestedSequence = m.requestedSequence
        }
    }

    /// The line for one ``AdaptiveEvent``.
    static func line(for event: AdaptiveEvent) -> String {
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
