import BackendCore

/// Adaptive streaming (HLS/DASH) on ``Player``: what the monitor knows, and the ABR controls
/// (``AdaptiveFeature``; a player without that feature reports empty information and ignores them).
///
/// The policy (``AdaptivePolicy``) starts on the lowest variant, follows the estimated bandwidth
/// with a safety ratio, honours caps and a manual pin, and sets how much must be buffered before
/// playback resumes after a stall. It is applied through the demuxer's `connection-speed`
/// (`hlsdemux`, and `hlsdemux2` under playbin3).
extension Player {
    /// Variants, current variant, bandwidth estimate, buffer level, segment downloads, stalls and
    /// the seed's ABR metrics. Any thread: the feature's section of `snapshot` (one lock;
    /// refreshed every 250 ms and on each segment).
    public var adaptiveInfo: AdaptiveInfo { snapshot.features[AdaptiveInfo.self] ?? AdaptiveInfo() }

    /// Replaces the whole ABR policy; applied at once (the demuxer switches at its next segment)
    /// and to later loads. Any thread; runs on the loop thread.
    public func setAdaptivePolicy(_ policy: AdaptivePolicy) {
        withFeature(AdaptiveFeature.self) { feature, _ in feature.setPolicy(policy) }
    }

    /// Pins the variant at `index` of `AdaptiveInfo.variants` (nil: automatic selection again).
    /// Any thread; runs on the loop thread.
    public func pinVariant(_ index: Int?) {
        withFeature(AdaptiveFeature.self) { feature, _ in
            var policy = feature.policy
            policy.pinned = index
            feature.setPolicy(policy)
        }
    }

    /// Caps the variants by peak bitrate (bits/s) and/or height (pixels); nil lifts a cap.
    /// Any thread; runs on the loop thread.
    public func setVariantCap(maxBitrate: Int?, maxHeight: Int?) {
        withFeature(AdaptiveFeature.self) { feature, _ in
            var policy = feature.policy
            policy.maxBitrate = maxBitrate
            policy.maxHeight = maxHeight
            feature.setPolicy(policy)
        }
    }
}
