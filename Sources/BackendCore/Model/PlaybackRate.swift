/// The one rule for playback rates. ``Player/setRate(_:)`` and `FeatureContext.transport.setRate(_:)` apply
/// it, so every door does: the console's and the JSON protocol's `rate`, the mpv socket's `speed`,
/// the web remote, MPRIS `Rate`, `--rate` and the `+`/`-` keys. Pure; any thread.
public enum PlaybackRate {
    /// The slowest rate either way (mpv's `speed` minimum). Nearer 0 GStreamer's segment
    /// arithmetic breaks down: at 5e-324 or 1e-300 decoder and queue threads crash (SIGSEGV in
    /// libavcodec or multiqueue, heap corruption) within seconds, and at 1e-10 a seek never lands.
    public static let minimumMagnitude = 0.01

    /// Why `rate` cannot be played where `allowed` is the configured range
    /// (``PlayerConfiguration/rateRange``), as one line; nil when it can: finite, within
    /// `allowed` and at least ``minimumMagnitude`` away from 0.
    public static func problem(with rate: Double, allowed: ClosedRange<Double>) -> String? {
        guard rate.isFinite, rate != 0, allowed.contains(rate) else {
            return "rate \(rate) is outside the allowed range \(allowed.lowerBound)…\(allowed.upperBound) (and must not be 0)"
        }
        guard rate.magnitude >= minimumMagnitude else {
            return "rate \(rate) is too close to 0 (the slowest rate is \(minimumMagnitude) either way)"
        }
        return nil
    }

    /// The lowest and highest rates that pass ``problem(with:allowed:)`` for `allowed` (what
    /// MPRIS reports as `MinimumRate` and `MaximumRate`): a bound that lies within
    /// ``minimumMagnitude`` of 0 moves out to it.
    public static func playable(_ allowed: ClosedRange<Double>) -> (lowest: Double, highest: Double) {
        func outside(_ bound: Double, towards sign: Double) -> Double {
            bound.magnitude < minimumMagnitude ? sign * minimumMagnitude : bound
        }
        return (outside(allowed.lowerBound, towards: 1), outside(allowed.upperBound, towards: -1))
    }
}

extension PlayerConfiguration {
    /// Throws ``PlayerError/Kind/invalidArgument`` with ``PlaybackRate``'s reason when `rate`
    /// may not be played with this configuration's ``rateRange``.
    public func checkRate(_ rate: Double) throws(PlayerError) {
        if let problem = PlaybackRate.problem(with: rate, allowed: rateRange) {
            throw PlayerError(kind: .invalidArgument, message: problem)
        }
    }
}
