import Backend
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A decoded JSON value: the input type of the request parser (``JSONProtocol/parseRequest(_:)``),
/// which needs to tell a missing key from a wrong type to answer with the right message.
/// Output never goes through it (see Wire/). A plain `Sendable` value; any thread.
public enum JSONValue: Sendable, Equatable {
    case null
    case bool(Bool)
    case int(Int64)
    case double(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    /// Parses one JSON text (any top-level value). Throws a short description on malformed input.
    public static func parse(_ text: String) throws(JSONParseError) -> JSONValue {
        do {
            return try JSONDecoder().decode(JSONValue.self, from: Data(text.utf8))
        } catch let error as DecodingError {
            switch error {
            case .dataCorrupted(let context):
                // Malformed text: "The given data was not valid JSON." (the decoder gives no
                // underlying error on Linux, with or without Foundation).
                throw JSONParseError(message: context.debugDescription)
            default:
                throw JSONParseError(message: "\(error)")
            }
        } catch {
            throw JSONParseError(message: "\(error)")
        }
    }

    /// The member `key` of an object, nil for other values or a missing key.
    public subscript(key: String) -> JSONValue? {
        if case .object(let members) = self { return members[key] }
        return nil
    }

    /// A whole number within `range`, given as a JSON number or as text (`4`, `4.0`, `"4"`): a
    /// client's number goes through `WholeNumber` (the one checked conversion), so `1e19`,
    /// NaN, fractions, values outside `range` and non-numbers all give nil, never a trap.
    public func wholeNumber<T: FixedWidthInteger>(in range: ClosedRange<T>) -> T? {
        switch self {
        case .int(let value): return WholeNumber.exact(value, in: range)
        case .double(let value): return WholeNumber.exact(value, in: range)
        case .string(let text):
            let trimmed = text.trimmingWhitespace()
            if let value = Int64(trimmed) { return WholeNumber.exact(value, in: range) }
            return Double(trimmed).flatMap { WholeNumber.exact($0, in: range) }
        default: return nil
        }
    }

    /// A number as a command word: integers as digits (`50`, also for an integral double below
    /// 10^15), other numbers in Swift's shortest form (`1.5`); nil for non-numbers.
    public var numberWord: String? {
        switch self {
        case .int(let value): return String(value)
        case .double(let value):
            if let whole = WholeNumber.exact(value, in: Int64(-999_999_999_999_999)...999_999_999_999_999) { return String(whole) }
            return "\(value)"
        default: return nil
        }
    }
}

/// A malformed JSON text (a plain value; any thread).
public struct JSONParseError: Error, Equatable, Sendable {
    package var message: String
}

extension JSONValue: Decodable {
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() { self = .null; return }
        if let value = try? container.decode(Bool.self) { self = .bool(value); return }
        if let value = try? container.decode(Int64.self) { self = .int(value); return }
        if let value = try? container.decode(Double.self) { self = .double(value); return }
        if let value = try? container.decode(String.self) { self = .string(value); return }
        if let value = try? container.decode([JSONValue].self) { self = .array(value); return }
        if let value = try? container.decode([String: JSONValue].self) { self = .object(value); return }
        throw DecodingError.dataCorruptedError(in: container, debugDescription: "unsupported JSON value")
    }
}
