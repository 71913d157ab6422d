/// SplitMix64: a tiny, stable pseudo-random generator (the same numbers on every platform and
/// Swift version, unlike the standard library's shuffle). The queue's shuffle uses it; the bench
/// and the tests use it where a run must repeat exactly. Pure value, any thread.
public struct SeededGenerator: RandomNumberGenerator, Sendable {
    private var state: UInt64

    /// The generator for `seed`, on one of several independent `stream`s of it.
    public init(seed: UInt64, stream: UInt64 = 0) {
        state = seed ^ (stream &* 0xD1B5_4A32_D192_ED03) ^ 0x2545_F491_4F6C_DD1D
    }

    /// The next 64 random bits.
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
