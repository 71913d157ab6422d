/// One ABR decision that changed the variant asked for, with what it was decided on
/// (``AdaptiveInfo/decisions``): lets a test or a benchmark check the rule's ordering properties,
/// e.g. that no switch up was made while the buffer was under ``BufferAwareRule/safetySeconds``.
///
/// Made by `VariantSelector` on the thread that decided (the demuxer's, or the loop thread for a
/// policy change); a plain value, safe anywhere.
public struct ABRDecision: Sendable, Hashable, Codable {
    /// The variant asked for before (nil: none yet).
    public var from: Int?
    /// The variant asked for now.
    public var to: Int
    /// Why.
    public var reason: VariantSwitchReason
    /// The rule in force.
    public var rule: ABRRule
    /// The media buffered ahead when deciding, seconds (nil: unknown).
    public var bufferSeconds: Double?
    /// The throughput estimate the rule used, bits/s (nil: none yet).
    public var estimate: Double?
    /// The fragment length the rule assumed, seconds.
    public var fragmentSeconds: Double

    /// Creates the value.
    public init(from: Int?, to: Int, reason: VariantSwitchReason, rule: ABRRule, bufferSeconds: Double?, estimate: Double?,
                fragmentSeconds: Double) {
        self.from = from
        self.to = to
        self.reason = reason
        self.rule = rule
        self.bufferSeconds = bufferSeconds
        self.estimate = estimate
        self.fragmentSeconds = fragmentSeconds
    }
}
