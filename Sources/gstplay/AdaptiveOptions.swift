import ArgumentParser
import Backend
import BackendControl

/// `--max-bitrate`, `--max-height`, `--start-variant`, `--abr-rule`: the ABR policy from the command line.
/// Parsed by ArgumentParser; any thread.
struct AdaptiveOptions: ParsableArguments {
    @Option(name: .customLong("max-bitrate"), help: ArgumentHelp(
        "Highest variant bitrate to play, in bits/s (suffix k or M: 1.5M).", valueName: "bits"))
    var maxBitrate: String?

    @Option(name: .customLong("max-height"), help: ArgumentHelp("Highest variant height to play, in pixels (e.g. 480).", valueName: "pixels"))
    var maxHeight: Int?

    @Option(name: .customLong("start-variant"), help: ArgumentHelp(
        "Variant to start on: lowest (default), highest (within the caps), or auto (the demuxer's choice).",
        valueName: "lowest|highest|auto"))
    var startVariant: String?

    @Option(name: .customLong("abr-rule"), help: ArgumentHelp(
        "ABR rule: buffer (default: throughput and buffer level) or throughput (the pure throughput baseline).",
        valueName: "buffer|throughput"))
    var abrRule: String?

    /// The policy these options ask for; `ValidationError` (exit 2) for bad values.
    func policy() throws -> AdaptivePolicy {
        var policy = AdaptivePolicy()
        if let maxBitrate {
            guard let bits = Self.bitrate(maxBitrate), bits > 0 else {
                throw ValidationError("--max-bitrate must be a positive number of bits/s such as 800000, 800k or 1.5M (got '\(maxBitrate)')")
            }
            policy.maxBitrate = bits
        }
        if let maxHeight {
            guard maxHeight > 0 else { throw ValidationError("--max-height must be a positive number of pixels (got \(maxHeight))") }
            policy.maxHeight = maxHeight
        }
        if let startVariant {
            guard let start = AdaptivePolicy.Start(rawValue: startVariant.lowercased()) else {
                throw ValidationError("--start-variant must be lowest, highest or auto (got '\(startVariant)')")
            }
            policy.start = start
        }
        if let abrRule {
            guard let rule = ABRRule(rawValue: abrRule.lowercased()) else {
                throw ValidationError("--abr-rule must be buffer or throughput (got '\(abrRule)')")
            }
            policy.rule = rule
        }
        return policy
    }

    /// `800000`, `800k`, `1.5M` → bits/s.
    static func bitrate(_ text: String) -> Int? {
        let trimmed = text.trimmingWhitespace()
        let scale: Double
        var digits = Substring(trimmed)
        switch trimmed.last {
        case "k", "K": scale = 1_000; digits = digits.dropLast()
        case "m", "M": scale = 1_000_000; digits = digits.dropLast()
        default: scale = 1
        }
        guard let value = Double(digits), value.isFinite, value > 0, value * scale < Double(Int.max) else { return nil }
        return Int((value * scale).rounded())
    }
}
