import Backend
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Glibc

/// The one writer of JSON for the `--json` protocol (docs/PROTOCOL.md): every event and reply
/// is an `Encodable` value from this folder, turned into one line by ``line(_:)`` with one
/// `JSONEncoder` (keys sorted, camelCase properties written as snake_case, `/` not escaped).
/// Pure; any thread.
public enum Wire {
    /// The encoder for every line (`JSONEncoder` is thread-safe for encoding).
    public static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.keyEncodingStrategy = .convertToSnakeCase
        return encoder
    }()

    /// One compact JSON line (no newline) for `value`.
    public static func line(_ value: some Encodable) -> String {
        do {
            return escapingLikeProtocolV1(String(decoding: try encoder.encode(value), as: UTF8.self))
        } catch {
            // Only non-finite numbers can fail, and the wrappers below write those as null.
            return #"{"error":"internal: could not encode a line"}"#
        }
    }

    /// The protocol's string escapes, which are a little stricter than `JSONEncoder`'s:
    /// backspace and form feed as `\u0008`/`\u000c` (not `\b`/`\f`), and DEL, U+2028 and U+2029
    /// escaped too, so a line is safe for line-oriented readers and JavaScript `eval`.
    /// `text` is `JSONEncoder` output: a backslash there always starts an escape sequence.
    public static func escapingLikeProtocolV1(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: { $0 == "\\" || $0 == "\u{7F}" || $0 == "\u{2028}" || $0 == "\u{2029}" }) else {
            return text
        }
        var out = String.UnicodeScalarView()
        var escaping = false
        for scalar in text.unicodeScalars {
            if escaping {
                escaping = false
                switch scalar {
                case "b": out.append(contentsOf: "u0008".unicodeScalars)
                case "f": out.append(contentsOf: "u000c".unicodeScalars)
                default: out.append(scalar)
                }
                continue
            }
            switch scalar {
            case "\\": escaping = true; out.append(scalar)
            case "\u{7F}": out.append(contentsOf: "\\u007f".unicodeScalars)
            case "\u{2028}": out.append(contentsOf: "\\u2028".unicodeScalars)
            case "\u{2029}": out.append(contentsOf: "\\u2029".unicodeScalars)
            default: out.append(scalar)
            }
        }
        return String(out)
    }

    /// Perceptual volume in percent for a linear volume, one decimal (`VolumeScale/percent(fromLinear:)`).
    public static func volumePercent(linear: Double) -> Double { VolumeScale.percent(fromLinear: linear) }

    /// `value` rounded to `digits` decimals.
    public static func rounded(_ value: Double, digits: Int) -> Double {
        let scale = pow(10, Double(digits))
        return (value * scale).rounded() / scale
    }
}

/// An optional field that is written as `null` when absent (synthesized `Encodable` would
/// leave the key out). A plain value; any thread.
@propertyWrapper
public struct Nullable<Value: Encodable & Sendable & Equatable>: Encodable, Sendable, Equatable {
    /// The value; nil is written as `null`.
    public var wrappedValue: Value?
    /// Wraps `wrappedValue`.
    public init(wrappedValue: Value?) { self.wrappedValue = wrappedValue }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        if let wrappedValue { try container.encode(wrappedValue) } else { try container.encodeNil() }
    }
}

/// A number that is written as `null` when it is not finite (JSON has no NaN or infinity).
/// A plain value; any thread.
@propertyWrapper
public struct Finite: Encodable, Sendable, Equatable {
    /// The number; a non-finite one is written as `null`.
    public var wrappedValue: Double
    /// Wraps `wrappedValue`.
    public init(wrappedValue: Double) { self.wrappedValue = wrappedValue }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        if wrappedValue.isFinite { try container.encode(wrappedValue) } else { try container.encodeNil() }
    }
}

/// A time as seconds rounded to the millisecond (`1.25`, `10.021`, `4`), `null` when unknown.
/// A plain value; any thread.
public struct Seconds: Encodable, Sendable, Equatable {
    /// The time (nil: unknown).
    public var time: MediaTime?
    /// `time` as seconds.
    public init(_ time: MediaTime?) { self.time = time }

    /// The seconds as a JSON number, or `null`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        if let time { try container.encode(Double(time.milliseconds) / 1000) } else { try container.encodeNil() }
    }
}

/// `{"height": …, "width": …}` for a display size. A plain value; any thread.
public struct WireSize: Encodable, Sendable, Equatable {
    /// Height in pixels.
    public var height: Int
    /// Width in pixels.
    public var width: Int
    /// The size of `size`.
    public init(_ size: VideoSize) { height = size.height; width = size.width }
}
