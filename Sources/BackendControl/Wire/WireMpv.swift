import Backend
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A property value on mpv's JSON IPC (docs/PROTOCOL.md, "mpv IPC"): the `data` of a reply or of
/// a `property-change` event. Non-finite numbers are written as `null`. A plain value; any thread.
public enum MpvValue: Encodable, Equatable, Sendable {
    case null
    case bool(Bool)
    case int(Int64)
    case double(Double)
    case string(String)
    case array([MpvValue])
    case object([String: MpvValue])

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let value): try container.encode(value)
        case .int(let value): try container.encode(value)
        case .double(let value): if value.isFinite { try container.encode(value) } else { try container.encodeNil() }
        case .string(let value): try container.encode(value)
        case .array(let values): try container.encode(values)
        case .object(let members): try container.encode(members)
        }
    }

    /// The value as `get_property_string` gives it (mpv's own formatting: `yes`/`no`, six
    /// decimals); nil for `null`.
    public var text: String? {
        switch self {
        case .null: nil
        case .bool(let value): value ? "yes" : "no"
        case .int(let value): String(value)
        case .double(let value): Self.sixDecimals(value)
        case .string(let value): value
        case .array, .object: Wire.line(self)
        }
    }

    /// `printf("%.6f")` without Foundation's `String(format:)`: `50.000000`, `-1.500000`.
    public static func sixDecimals(_ value: Double) -> String {
        guard value.isFinite else { return value.isNaN ? "nan" : value < 0 ? "-inf" : "inf" }
        let micro = (abs(value) * 1_000_000).rounded()
        guard micro < 9e18 else { return String(value) }
        let whole = Int64(micro) / 1_000_000, fraction = String(Int64(micro) % 1_000_000)
        return (value < 0 && micro > 0 ? "-" : "") + "\(whole)." + String(repeating: "0", count: 6 - fraction.count) + fraction
    }
}

/// The replies and events of mpv's IPC, as mpv 0.35 writes them (checked against `mpv
/// --input-ipc-server` on 2026-11-25). Pure; any thread.
public enum WireMpv {
    /// The reply to an mpv command: `{"data": …, "error": "success", "request_id": N}`. `data` is
    /// absent where mpv leaves it out (property setters, `observe_property`, errors); a missing
    /// `request_id` is answered with `0`, as mpv does.
    public struct Reply: Encodable, Sendable {
        /// The request's `request_id`, echoed.
        public var id: RequestID
        /// nil for success, else mpv's error text.
        public var error: String?
        /// nil: no `data` key; `.some(.null)`: `"data": null`.
        public var data: MpvValue?

        /// The reply to request `id`: `error` nil for success, with its `data`.
        public init(id: RequestID, error: String?, data: MpvValue?) {
            self.id = id
            self.error = error
            self.data = data
        }

        private enum Keys: String, CodingKey { case data, error, requestID }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Keys.self)
            try container.encodeIfPresent(data, forKey: .data)
            try container.encode(error ?? "success", forKey: .error)
            switch id {
            case .absent: try container.encode(0, forKey: .requestID)
            case .null: try container.encodeNil(forKey: .requestID)
            case .int(let value): try container.encode(value, forKey: .requestID)
            case .double(let value): try container.encode(Finite(wrappedValue: value), forKey: .requestID)
            case .string(let value): try container.encode(value, forKey: .requestID)
            }
        }

        /// The reply as one JSON line.
        public var line: String { Wire.line(self) }
    }

    /// `property-change`: the observer's id, the property's name and its value (no `data` key
    /// while the property is unavailable).
    public struct PropertyChange: Encodable, Sendable {
        package var id: Int64
        package var name: String
        package var data: MpvValue?
    }

    /// `start-file`: the playlist entry's id.
    public struct StartFile: Encodable, Sendable { var playlistEntryId: Int64 }
    /// `end-file`: why (`eof`, `stop`, `quit`, `error`), the entry's id, and the error text for `error`.
    public struct EndFile: Encodable, Sendable {
        package var reason: String
        package var playlistEntryId: Int64
        package var fileError: String?
    }

    /// `{"event": "<name>", …}` for an mpv event.
    public static func event(_ name: String, _ payload: some Encodable & Sendable = NoFields()) -> String {
        Wire.line(WireEvent(event: name, payload: payload))
    }

    /// A `property-change` event line.
    public static func propertyChange(id: Int64, name: String, value: MpvValue?) -> String {
        event("property-change", PropertyChange(id: id, name: name, data: value))
    }
}
