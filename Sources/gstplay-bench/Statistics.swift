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

