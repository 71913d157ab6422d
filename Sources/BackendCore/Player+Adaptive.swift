/// Adaptive streaming (HLS/DASH) on ``Player``: what the monitor knows, and the ABR controls.
///
/// The policy (``AdaptivePolicy``) starts on the lowest variant, follows the estimated bandwidth
/// with a safety ratio, honours caps and a manual pin, and sets how much must be buffered before
/// playback resumes after a stall. It is applied through the demuxer's `connection-speed`
/// (`hlsdemux`, and `hlsdemux2` under playbin3).
extension Player {
    /// Variants, current variant, bandwidth estimate, buffer level, segment downloads, stalls and
    /// the seed's ABR metrics. Any thread (a snapshot; refreshed every 250 ms and on each segment).
    public var adaptiveInfo: AdaptiveInfo { engineAdaptiveInfo() }

    /// Replaces the whole ABR policy; applied at once (the demuxer switches at its next segment)
    /// and to later loads. Any thread; runs on the loop thread.
    public func setAdaptivePolicy(_ policy: AdaptivePolicy) {
        command { $0.setAdaptivePolicy(policy) }
    }

    /// Pins the variant at `index` of ``AdaptiveInfo/variants`` (nil: automatic selection again).
    public func pinVariant(_ index: Int?) {
        command { engine in
            var policy = engine.adaptive.policy
            policy.pinned = index
            engine.setAdaptivePolicy(policy)
        }
    }

    /// Caps the variants by peak bitrate (bits/s) and/or height (pixels); nil lifts a cap.
    public func setVariantCap(maxBitrate: Int?, maxHeight: Int?) {
        command { engine in
            var policy = engine.adaptive.policy
            policy.maxBitrate = maxBitrate
            policy.maxHeight = maxHeight
            engine.setAdaptivePolicy(policy)
        }
    }
}
