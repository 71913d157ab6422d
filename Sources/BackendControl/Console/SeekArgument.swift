import Backend
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A seek target as typed by a user: `90`, `1:30`, `1:02:03.5` (absolute), `+10`, `-5`,
/// `-1:00` (relative to the current position) or `50%` (fraction of the duration).
/// Pure parsing; any thread.
public enum SeekArgument: Equatable, Sendable {
    /// A point on the timeline.
    case absolute(MediaTime)
    /// An offset from the current position (negative goes back).
    case relative(MediaTime)
    /// A fraction of the duration, 0…1 (typed as a percentage).
    case fraction(Double)

    /// What the accepted forms look like, for error messages and help.
    public static let formats = "seconds (90), [H:]M:SS[.f] (1:30, 1:02:03.5), +N/-N (relative) or N% (0-100)"

    /// Parses one time argument. Errors name the input and what was wrong with it.
    public static func parse(_ text: String) -> Result<SeekArgument, ConsoleError> {
        let trimmed = text.trimmingWhitespace()
        let shown = ConsoleCommand.printable(trimmed)
        guard !trimmed.isEmpty else { return .failure(ConsoleError("empty time (expected \(formats))")) }
        if trimmed.hasSuffix("%") {
            guard let value = StrictNumber.unsigned(String(trimmed.dropLast())) else {
                return .failure(ConsoleError("invalid percentage '\(shown)' (expected a number from 0 to 100 followed by %)"))
            }
            guard value <= 100 else {
                return .failure(ConsoleError("percentage '\(shown)' is out of range 0-100%"))
            }
            return .success(.fraction(value / 100))
        }
        var body = Substring(trimmed)
        var sign: Double? = nil
        if body.first == "+" { sign = 1; body = body.dropFirst() } else if body.first == "-" { sign = -1; body = body.dropFirst() }
        switch clockSeconds(String(body), original: shown) {
        case .failure(let error): return .failure(error)
        case .success(let seconds):
            if let sign { return .success(.relative(MediaTime(seconds: sign * seconds))) }
            return .success(.absolute(MediaTime(seconds: seconds)))
        }
    }

    /// `S[.f]`, `M:SS[.f]` or `H:MM:SS[.f]` in seconds. Fields after the first must be below 60.
    public static func clockSeconds(_ text: String, original: String) -> Result<Double, ConsoleError> {
        let invalid = ConsoleError("invalid time '\(original)' (expected \(formats))")
        let parts = text.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
        guard (1...3).contains(parts.count), parts.allSatisfy({ !$0.isEmpty }) else { return .failure(invalid) }
        guard let seconds = StrictNumber.unsigned(parts[parts.count - 1]) else { return .failure(invalid) }
        var fields: [Double] = []
        for part in parts.dropLast() {
            guard part.allSatisfy({ $0.isASCII && $0.isNumber }), let value = Double(part) else { return .failure(invalid) }
            fields.append(value)
        }
        if parts.count >= 2 && seconds >= 60 {
            return .failure(ConsoleError("invalid time '\(original)': seconds must be below 60"))
        }
        if parts.count == 3 && fields[1] >= 60 {
            return .failure(ConsoleError("invalid time '\(original)': minutes must be below 60"))
        }
        let value = fields.reduce(0) { $0 * 60 + $1 } * 60 + seconds
        guard value.isFinite, value < 1e12 else { return .failure(ConsoleError("invalid time '\(original)': too large")) }
        return .success(value)
    }
}

/// Decimal numbers as people type them, without the surprises of `Double.init(_:)`
/// (`nan`, `inf`, `0x1p3`, `1e5` are all rejected). Pure; any thread.
public enum StrictNumber {
    /// `digits[.digits]` or `.digits`; nil for anything else or a non-finite result.
    public static func unsigned(_ text: String) -> Double? {
        guard !text.isEmpty, text != "." else { return nil }
        var dots = 0
        for character in text {
            if character == "." { dots += 1; continue }
            guard character.isASCII, character.isNumber else { return nil }
        }
        guard dots <= 1, let value = Double(text), value.isFinite else { return nil }
        return value
    }

    /// An optional `+`/`-` sign followed by ``unsigned(_:)``.
    public static func signed(_ text: String) -> Double? {
        if text.hasPrefix("-") { return unsigned(String(text.dropFirst())).map { -$0 } }
        if text.hasPrefix("+") { return unsigned(String(text.dropFirst())) }
        return unsigned(text)
    }
}
