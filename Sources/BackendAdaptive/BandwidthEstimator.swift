/// The bandwidth estimate of the ABR loop: an exponentially weighted moving average of the
/// throughput of finished segment downloads (seed 004's `Estimated_BandWith`).
///
/// Pure value; the `AdaptiveMonitor` feeds it on the loop thread.
struct BandwidthEstimator: Sendable, Hashable {
    /// Weight of the newest sample, 0…1 (higher reacts faster).
    var weight: Double
    /// Downloads shorter than this (seconds) are counted with this duration: on a fast local
    /// link a segment arrives in microseconds and the raw figure is meaningless.
    var minimumSeconds: Double
    /// The estimate in bits/s, nil before the first sample.
    private(set) var bitsPerSecond: Double?

    /// An estimator with no samples.
    init(weight: Double = 0.5, minimumSeconds: Double = 0.005) {
        self.weight = weight
        self.minimumSeconds = minimumSeconds
    }

    /// Adds one download of `bytes` that took `seconds`. A download that was much slower than
    /// the estimate replaces it outright, so a collapse of the link is seen at once.
    mutating func add(bytes: Int, seconds: Double) {
        guard bytes > 0, seconds >= 0 else { return }
        let sample = Double(bytes) * 8 / max(seconds, minimumSeconds)
        if let current = bitsPerSecond, sample >= current / 2 {
            bitsPerSecond = weight * sample + (1 - weight) * current
        } else {
            bitsPerSecond = sample
        }
    }

    /// Forgets every sample (new stream).
    mutating func reset() { bitsPerSecond = nil }
}
