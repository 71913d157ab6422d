/// The buffer-aware ABR rule (``ABRRule/bufferAware``; docs/ADR-003-buffer-aware-abr.md):
/// a throughput rule on the harmonic-mean estimate (``ThroughputHistory``) with two buffer guards.
///
/// 1. **Throughput:** the highest allowed variant whose `BANDWIDTH` fits estimate ×
///    ``AdaptivePolicy/safetyRatio``.
/// 2. **Emergency:** below one fragment of buffer the budget shrinks in proportion
///    (× buffer / fragment length, dash.js's InsufficientBufferRule), so a draining buffer switches
///    down at the next fragment, to the lowest variant as it nears empty.
/// 3. **No up-switch the buffer cannot absorb:** a higher variant is taken only if the buffer left
///    after downloading one of its fragments at the estimate stays at or above ``safetySeconds``;
///    otherwise the highest lower candidate that passes, else the current variant stays.
/// 4. **The climb:** the recent fragments (`recentEstimate`, ``ThroughputHistory/recentHarmonicMean``)
///    are trusted above the window where they are faster: the current variant is kept while they
///    fit it, and over a buffer of at least ``climbCushionFragments`` fragments a switch up of one
///    rung is taken on them (at ``climbShare`` of the safety ratio) when the window alone would
///    stay. Guard 3 keeps the window's estimate.
///
/// Pins, caps, the start variant and "no estimate yet" are ``AdaptivePolicy/select(_:current:estimate:)``'s.
/// Pure; runs wherever `VariantSelector` decides (the demuxer's streaming thread).
public struct BufferAwareRule: Sendable, Hashable {
    /// The buffer (seconds) that must remain after the next fragment of a higher variant has
    /// downloaded at the estimate. decodebin's buffering queue pauses playback (a stall) under 10 %
    /// of its 5 s, i.e. 0.5 s; 1.5 s leaves a 1 s margin, which absorbs a 30–50 % over-estimate on
    /// one 2 s fragment.
    public static let safetySeconds = 1.5

    /// The buffer, in fragments (4 s on 2 s fragments), from which a switch up may be taken on the
    /// recent fragments (guard 4): at that depth a 30–50 % over-estimate on one fragment still
    /// leaves more than the 1.5 s guard 3 keeps.
    public static let climbCushionFragments = 2.0

    /// The share of the safety ratio a switch up on the recent fragments may use (0.875 × 0.8 =
    /// 0.7): two small fragments can arrive in a burst above the link's rate (seen on the
    /// `oscillating` trace: 720p taken on a 3000 kbit/s link, then a 4 s stall when it dropped).
    public static let climbShare = 0.875

    /// The policy: caps, pin, start and safety ratio.
    public var policy: AdaptivePolicy

    /// A rule applying `policy`.
    public init(policy: AdaptivePolicy) { self.policy = policy }

    /// The variant to request next (and why), nil when nothing is to be decided yet.
    /// - Parameters:
    ///   - variants: the ladder, lowest bandwidth first (indices are what `current` and the answer name).
    ///   - current: the variant asked for last (nil before the first).
    ///   - estimate: the throughput estimate, bits/s (nil before the first download).
    ///   - bufferSeconds: media buffered ahead now (nil when unknown: the guards are skipped).
    ///   - fragmentSeconds: the media length of one fragment.
    ///   - recentEstimate: the throughput of the last fragments, bits/s (nil: the climb is off).
    public func select(_ variants: [Variant], current: Int?, estimate: Double?, bufferSeconds: Double?,
                       fragmentSeconds: Double, recentEstimate: Double? = nil) -> (index: Int, reason: VariantSwitchReason)? {
        if let pinned = policy.pinned, variants.indices.contains(pinned) { return (pinned, .pinned) }
        guard let estimate, estimate > 0, let current, variants.indices.contains(current) else {
            return policy.select(variants, current: current, estimate: estimate)
        }
        let allowed = policy.allowed(variants)
        var ratio = policy.safetyRatio
        if let bufferSeconds, fragmentSeconds > 0, bufferSeconds < fragmentSeconds {
            ratio *= max(bufferSeconds, 0) / fragmentSeconds
        }
        func fitting(_ bitsPerSecond: Double, share: Double = 1) -> Int {
            allowed.last { Double(variants[$0].bandwidth) <= bitsPerSecond * ratio * share } ?? allowed[0]
        }
        var target = fitting(estimate)
        let recent = max(estimate, recentEstimate ?? 0)
        if target < current, fitting(recent) >= current, allowed.contains(current) {
            target = current   // the recent fragments still fit it: the window lags a rise
        } else if target <= current, fitting(recent, share: Self.climbShare) > current, let bufferSeconds,
                  bufferSeconds >= Self.climbCushionFragments * fragmentSeconds {
            target = allowed.first { $0 > current } ?? current   // the climb: one rung
        }
        if target > current, let bufferSeconds {
            // The highest candidate whose next fragment leaves the safety level; else stay.
            target = allowed.last { index in
                index > current && index <= target
                    && Self.bufferAfterFragment(of: variants[index], bufferSeconds: bufferSeconds, estimate: estimate,
                                                fragmentSeconds: fragmentSeconds) >= Self.safetySeconds
            } ?? current
        }
        if !allowed.contains(current) { return (target, .cap) }
        if target == current { return (current, .start) }
        return (target, target > current ? .bandwidthUp : .bandwidthDown)
    }

    /// The buffer left once one fragment of `variant` (its peak `BANDWIDTH` × `fragmentSeconds`)
    /// has downloaded at `estimate` bits/s, from `bufferSeconds` now.
    public static func bufferAfterFragment(of variant: Variant, bufferSeconds: Double, estimate: Double,
                                           fragmentSeconds: Double) -> Double {
        bufferSeconds - Double(variant.bandwidth) * fragmentSeconds / max(estimate, 1)
    }
}
