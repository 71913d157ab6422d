/// Order statistics of a sample (no assumptions about its distribution).
///
/// Percentiles use linear interpolation between the closest ranks (R-7 / NumPy's default):
/// `p` of n sorted values sits at index `p × (n − 1)`.
struct Summary: Sendable, Equatable {
    let count: Int
    let median: Double
    let min: Double
    let max: Double
    let mean: Double
    let p95: Double
    let p99: Double

    /// Nil for an empty sample.
    init?(_ values: [Double]) {
        let sorted = values.filter { $0.isFinite }.sorted()
        guard let first = sorted.first, let last = sorted.last else { return nil }
        count = sorted.count
        min = first
        max = last
        mean = sorted.reduce(0, +) / Double(sorted.count)
        median = Summary.percentile(sorted, 0.5)
        p95 = Summary.percentile(sorted, 0.95)
        p99 = Summary.percentile(sorted, 0.99)
    }

    /// The `p` quantile (0…1) of an ascending, non-empty array.
    static func percentile(_ sorted: [Double], _ p: Double) -> Double {
        precondition(!sorted.isEmpty)
        let position = Swift.min(Swift.max(p, 0), 1) * Double(sorted.count - 1)
        let lower = Int(position.rounded(.down))
        let upper = Swift.min(lower + 1, sorted.count - 1)
        let fraction = position - Double(lower)
        return sorted[lower] + (sorted[upper] - sorted[lower]) * fraction
    }
}

/// Deterministic pseudo-random numbers (SplitMix64), so every run seeks to the same positions.
struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64
    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A uniform value in `0..<1`.
    mutating func unit() -> Double { Double(next() >> 11) / Double(1 << 53) }
}
