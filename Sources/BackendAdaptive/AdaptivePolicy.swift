/// The ABR rules of seed 004 as a pure value: which variant to start on, which to request
/// next for an estimated bandwidth, caps, manual pinning and the buffer to refill after a stall.
///
/// No GStreamer here: the `AdaptiveMonitor` applies the decisions (loop thread) by setting the
/// demuxer's `connection-speed` so that it picks exactly the chosen variant.
public struct AdaptivePolicy: Sendable, Hashable, Codable {
    /// Where playback starts before any bandwidth is known.
    public enum Start: String, Sendable, Hashable, Codable, CaseIterable {
        /// The lowest variant (the seed's rule, the default): no estimate exists yet.
        case lowest
        /// The highest variant the caps allow.
        case highest
        /// Whatever the demuxer picks by itself (for the legacy `hlsdemux`, the first variant listed).
        case auto
    }

    /// Where playback starts (default ``Start/lowest``).
    public var start: Start = .lowest
    /// Share of the estimated bandwidth a variant may use (seed: `SelectPlayList(Estimated_BandWith)`
    /// with a margin). 0.8 means a 1 Mb/s variant needs 1.25 Mb/s of estimate.
    public var safetyRatio: Double = 0.8
    /// Highest `BANDWIDTH` allowed, bits/s (nil: no cap).
    public var maxBitrate: Int?
    /// Highest `RESOLUTION` height allowed, pixels (nil: no cap).
    public var maxHeight: Int?
    /// A variant index the user pinned (nil: automatic). A pin wins over the caps.
    public var pinned: Int?
    /// Media that must be buffered before playback resumes after a stall, in seconds (seed:
    /// `MIN_BUFFER_SIZE`; at least ``minimumBufferFloor``). When set, decodebin's buffering queue
    /// gets `max-size-time` = 1.25 × this, so its BUFFERING 100 % (which resumes playback) comes
    /// at ≥ this level — which also bounds the read-ahead to that queue size. Nil (the default)
    /// keeps decodebin's automatic queue size, which reads further ahead: under the bench's
    /// bandwidth profile it rode out a throttle that stalled a 5 s queue (docs/RELIABILITY.md).
    public var minBufferSeconds: Double?
    /// The rule that picks the variant from the estimate (and, for ``ABRRule/bufferAware``, the
    /// buffer level); default ``ABRRule/bufferAware``.
    public var rule: ABRRule = .bufferAware

    /// The smallest ``minBufferSeconds`` applied (smaller values are raised to it), and the level
    /// the frozen-position watch waits for when ``minBufferSeconds`` is nil.
    public static let minimumBufferFloor: Double = 2

    /// The buffer the frozen-position watch refills before resuming.
    public var effectiveMinBuffer: Double { max(minBufferSeconds ?? Self.minimumBufferFloor, Self.minimumBufferFloor) }

    /// The default policy: start lowest, ratio 0.8, no caps, automatic, decodebin's queue size.
    public init() {}

    /// Indices of the variants the caps allow, lowest first; the lowest variant is always
    /// allowed, so a cap below every variant still plays something.
    public func allowed(_ variants: [Variant]) -> [Int] {
        let fitting = variants.filter { v in
            if let maxBitrate, v.bandwidth > maxBitrate { return false }
            if let maxHeight, let height = v.height, height > maxHeight { return false }
            return true
        }.map(\.index)
        return fitting.isEmpty ? (variants.isEmpty ? [] : [0]) : fitting
    }

    /// The seed's `MaxProfile`: the highest variant the policy may choose now.
    public func maxProfile(_ variants: [Variant]) -> Variant? {
        if let pinned, variants.indices.contains(pinned) { return variants[pinned] }
        return allowed(variants).last.map { variants[$0] }
    }

    /// The variant to start on, or nil to let the demuxer choose (``Start/auto`` without a pin).
    public func initialVariant(_ variants: [Variant]) -> Int? {
        if let pinned, variants.indices.contains(pinned) { return pinned }
        switch start {
        case .lowest: return allowed(variants).first
        case .highest: return allowed(variants).last
        case .auto: return nil
        }
    }

    /// The variant to request next, given the current one and the estimate (bits/s), with the
    /// reason to report if it differs from `current`. Nil when there is nothing to decide yet.
    public func select(_ variants: [Variant], current: Int?, estimate: Double?) -> (index: Int, reason: VariantSwitchReason)? {
        guard !variants.isEmpty else { return nil }
        if let pinned, variants.indices.contains(pinned) { return (pinned, .pinned) }
        let allowed = allowed(variants)
        guard let estimate else {
            guard let current else { return initialVariant(variants).map { ($0, .start) } }
            // No estimate yet: keep the current variant unless a cap now excludes it.
            return allowed.contains(current) ? (current, .start) : (allowed.last!, .cap)
        }
        let budget = estimate * safetyRatio
        let target = allowed.last { Double(variants[$0].bandwidth) <= budget } ?? allowed[0]
        guard let current else { return (target, .start) }
        if target == current { return (current, .start) }
        if !allowed.contains(current) { return (target, .cap) }
        return (target, target > current ? .bandwidthUp : .bandwidthDown)
    }

    /// The `connection-speed` (kbit/s) that makes the demuxer pick `index` out of `variants`
    /// when its own ratio (`bitrate-limit` / `bandwidth-target-ratio`) is 1.0: just below the
    /// next variant's lowest stated bitrate, or twice the top variant's peak.
    public static func connectionSpeed(selecting index: Int, of variants: [Variant]) -> UInt32 {
        guard variants.indices.contains(index) else { return 0 }
        // In Double: the bandwidths come from the manifest, and Int arithmetic on a hostile
        // `BANDWIDTH=9223372036854775807` would trap (exact below 2^53, clamped anyway above).
        let here = variants[index]
        let kbps: Double
        if index + 1 < variants.count {
            let next = variants[index + 1]
            let floorOfNext = Double(min(next.bandwidth, next.averageBandwidth ?? next.bandwidth))
            let ceilingHere = Double(max(here.bandwidth, here.averageBandwidth ?? here.bandwidth))
            kbps = max(((floorOfNext - 1) / 1000).rounded(.towardZero), ((ceilingHere + 999) / 1000).rounded(.towardZero))
        } else {
            kbps = (2 * Double(max(here.bandwidth, here.averageBandwidth ?? 0)) / 1000).rounded(.towardZero) + 1
        }
        return UInt32(min(max(kbps, 1), Double(UInt32.max)))
    }
}
