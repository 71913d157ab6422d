// Fuzz target `arguments`: gstplay's command line as ArgumentParser and `makeOptions` read it
// (Sources/gstplay: GstplayCommand, RunOptions, TrackOptions, AdaptiveOptions, NetworkOptions,
// LoopArgument, SeekArgument), with the time and size parsers also called directly. The input
// is split at newlines into arguments; a location is appended so the options are what is tested.
//
// Invariants:
//  1. Parsing never traps: bad values are errors with a message (exit 2), not crashes.
//  2. Accepted options are in their documented ranges: `--start` not negative and finite,
//     `--volume` 0–100, `--rate` non-zero in the rate range, offsets within ±3600000 ms, cache
//     size and bitrate positive, network timeout 1–3600 s.
//  3. The time parser gives a point (never negative) for unsigned text, an offset only for
//     `+`/`-`, a fraction within 0…1; size and bitrate parsers give positive values.

@testable import BackendCore
import Backend
@testable import BackendControl
@testable import gstplay
import ArgumentParser

/// The `arguments` fuzz target (invariants in the header). Pure; any thread.
enum ArgumentFuzz {
    static func run(_ bytes: [UInt8]) throws(InvariantViolation) {
        let text = String(decoding: bytes, as: UTF8.self)
        let words = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        try checkDirect(text)
        for word in words.prefix(16) { try checkDirect(word) }

        let arguments = FlagValueRewrite.rewrite(words + ["clip.mp4"])  // as GstplayCommand.main does
        let command: any ParsableCommand
        do { command = try GstplayCommand.parseAsRoot(arguments) } catch {
            let message = GstplayCommand.message(for: error)
            try check(!message.isEmpty || GstplayCommand.exitCode(for: error) == .success, "a refused command line has no message: \(words)")
            return
        }
        guard let gstplay = command as? GstplayCommand else { return }
        let options: RunOptions
        do { options = try gstplay.makeOptions() } catch {
            throw InvariantViolation(description: "validate() accepted what makeOptions() refuses: \(words): \(error)")
        }
        try checkOptions(options, words)
    }

    private static func checkDirect(_ text: String) throws(InvariantViolation) {
        if case .success(let argument) = SeekArgument.parse(text) {
            switch argument {
            case .absolute(let time):
                try check(time >= .zero, "time '\(text)' parsed to a negative point: \(time)")
            case .relative:
                try check(text.trimmingWhitespace().first.map { $0 == "+" || $0 == "-" } ?? false, "time '\(text)' is relative without a sign")
            case .fraction(let fraction):
                try check(fraction.isFinite && (0...1).contains(fraction), "percentage '\(text)' parsed to \(fraction)")
            }
        }
        if let size = NetworkOptions.size(text) { try check(size > 0, "size '\(text)' parsed to \(size)") }
        if let bitrate = AdaptiveOptions.bitrate(text) { try check(bitrate > 0, "bitrate '\(text)' parsed to \(bitrate)") }
        if let value = StrictNumber.signed(text) { try check(value.isFinite, "number '\(text)' parsed to \(value)") }
    }

    private static func checkOptions(_ options: RunOptions, _ words: [String]) throws(InvariantViolation) {
        if let start = options.start {
            switch start {
            case .absolute(let time): try check(time >= .zero, "--start accepted a negative time: \(words)")
            case .relative: throw InvariantViolation(description: "--start kept a relative time: \(words)")
            case .fraction(let fraction): try check((0...1).contains(fraction), "--start fraction \(fraction): \(words)")
            }
        }
        if let volume = options.volumePercent { try check((0...100).contains(volume), "--volume \(volume) accepted: \(words)") }
        if let rate = options.rate { try check(rate.isFinite && rate != 0 && PlayerConfiguration().rateRange.contains(rate), "--rate \(rate) accepted: \(words)") }
        try check(options.tracks.subtitleOffset.magnitude <= 3_600_000 && options.tracks.audioOffset.magnitude <= 3_600_000,
                  "an offset beyond ±3600000 ms accepted: \(words)")
        try check(options.network.cacheSize > 0, "cache size \(options.network.cacheSize) accepted: \(words)")
        try check((1...3600).contains(options.network.timeoutSeconds), "network timeout \(options.network.timeoutSeconds) accepted: \(words)")
        if let maxBitrate = options.adaptivePolicy.maxBitrate { try check(maxBitrate > 0, "--max-bitrate \(maxBitrate) accepted: \(words)") }
    }
}
