/// Which ABR rule ``AdaptivePolicy`` runs.
///
/// A plain value, safe on any thread; the decision itself runs on the demuxer's streaming thread
/// inside `VariantSelector`.
public enum ABRRule: String, Sendable, Hashable, Codable, CaseIterable {
    /// The buffer-aware rule (the default): a throughput estimate over the last fragments, never
    /// an up-switch the buffer cannot absorb, an emergency down-switch when the buffer falls
    /// under one fragment (docs/ADR-003-buffer-aware-abr.md).
    case bufferAware = "buffer"
    /// The pure throughput rule of seed 004 (an EWMA estimate × ``AdaptivePolicy/safetyRatio``),
    /// kept bit for bit as the benchmark's baseline.
    case throughput
}
