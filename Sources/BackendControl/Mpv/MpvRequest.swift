#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// One command of the mpv JSON IPC subset gstplay answers (docs/PROTOCOL.md, "mpv IPC").
/// A plain value; any thread.
public enum MpvCommand: Equatable, Sendable {
    /// How `loadfile` adds the file.
    public enum LoadMode: String, Equatable, Sendable { case replace, append, appendPlay = "append-play" }
    /// What a `seek` target means.
    public enum SeekMode: String, Equatable, Sendable {
        case relative, absolute
        case absolutePercent = "absolute-percent"
        case relativePercent = "relative-percent"
    }

    case getProperty(String, asText: Bool)
    case setProperty(String, JSONValue)
    case observe(id: Int64, name: String, asText: Bool)
    case unobserve(id: Int64)
    case clientName
    case getVersion
    case getTimeMicroseconds
    case requestLogMessages
    case setEvent(String, enabled: Bool)
    case loadFile(String, LoadMode)
    case cycle(String)
    case add(String, Double)
    case seek(Double, SeekMode)
    case playlistNext
    case playlistPrevious
    case quit(Int32?)
    /// `ab-loop`: set A at the playhead, then B, then clear.
    case abLoop
    /// `frame-step` / `frame-back-step`: pause and show the next / previous frame.
    case frameStep
    case frameBackStep
}

/// Recognises and parses mpv IPC requests: `{"command": ["get_property", "pause"], "request_id": 1}`.
/// A line is mpv's when its command's first word is one of ``names``; for `seek` also when it
/// has a flags argument or a JSON number as target (`["seek", 10]` is mpv's relative seek, while
/// `["seek", "+10"]`/`"1:30"` stay gstplay's); `quit` with an exit code. Every other line is
/// gstplay's (``JSONProtocol``). Pure; any thread.
public enum MpvRequest {
    /// The mpv commands answered (also the `command-list` property).
    public static let names = ["get_property", "get_property_string", "set_property", "set_property_string", "observe_property",
                        "observe_property_string", "unobserve_property", "client_name", "get_version", "get_time_us",
                        "request_log_messages", "enable_event", "disable_event", "loadfile", "cycle", "set", "add",
                        "seek", "playlist-next", "playlist-prev", "quit", "ab-loop", "frame-step", "frame-back-step"]
    /// mpv's error strings.
    public static let invalidParameter = "invalid parameter"

    /// The request's id and command (or mpv's error text), nil when the line is not an mpv request.
    public static func parse(_ line: String) -> (id: RequestID, command: Result<MpvCommand, MpvFailure>)? {
        let trimmed = line.trimmingWhitespaceAndNewlines()
        guard trimmed.first == "{", let value = try? JSONValue.parse(trimmed), case .array(let words)? = value["command"],
              case .string(let name)? = words.first, isMpv(name, arguments: Array(words.dropFirst())) else { return nil }
        var id = RequestID.absent
        switch value["request_id"] {
        case nil: id = .absent
        case .int(let number)?: id = .int(number)
        case .double(let number)?: id = .double(number)
        case .string(let text)?: id = .string(text)
        case .null?: id = .null
        default: return (.absent, .failure(MpvFailure(invalidParameter)))
        }
        return (id, command(name, Array(words.dropFirst())).mapError { $0 })
    }

    private static func isMpv(_ name: String, arguments: [JSONValue]) -> Bool {
        switch name {
        case "seek":
            if arguments.count >= 2 { return true }
            if case .int? = arguments.first { return true }
            if case .double? = arguments.first { return true }
            return false
        case "quit": return !arguments.isEmpty
        default: return names.contains(name)
        }
    }

    private static func command(_ name: String, _ arguments: [JSONValue]) -> Result<MpvCommand, MpvFailure> {
        let invalid = Result<MpvCommand, MpvFailure>.failure(MpvFailure(invalidParameter))
        func text(_ index: Int) -> String? {
            guard index < arguments.count else { return nil }
            switch arguments[index] {
            case .string(let value): return value
            case .int, .double: return arguments[index].numberWord
            case .bool(let flag): return flag ? "yes" : "no"
            default: return nil
            }
        }
        func number(_ index: Int) -> Double? {
            index < arguments.count ? MpvArgument.number(arguments[index]) : nil
        }
        switch name {
        case "get_property", "get_property_string":
            guard arguments.count == 1, let property = text(0) else { return invalid }
            return .success(.getProperty(property, asText: name.hasSuffix("_string")))
        case "set_property", "set_property_string", "set":
            guard arguments.count == 2, let property = text(0) else { return invalid }
            return .success(.setProperty(property, arguments[1]))
        case "observe_property", "observe_property_string":
            guard arguments.count == 2, let id = arguments[0].wholeNumber(in: Int64.min...Int64.max), let property = text(1) else { return invalid }
            return .success(.observe(id: id, name: property, asText: name.hasSuffix("_string")))
        case "unobserve_property":
            guard arguments.count == 1, let id = arguments[0].wholeNumber(in: Int64.min...Int64.max) else { return invalid }
            return .success(.unobserve(id: id))
        case "client_name": return .success(.clientName)
        case "get_version": return .success(.getVersion)
        case "get_time_us": return .success(.getTimeMicroseconds)
        case "request_log_messages": return .success(.requestLogMessages)
        case "enable_event", "disable_event":
            guard arguments.count == 1, let event = text(0) else { return invalid }
            return .success(.setEvent(event, enabled: name == "enable_event"))
        case "loadfile":
            guard (1...4).contains(arguments.count), let location = text(0), !location.isEmpty else { return invalid }
            let flag = text(1) ?? "replace"
            guard let mode = MpvCommand.LoadMode(rawValue: flag) else { return invalid }
            return .success(.loadFile(location, mode))
        case "cycle":
            guard (1...2).contains(arguments.count), let property = text(0) else { return invalid }
            return .success(.cycle(property))
        case "add":
            guard (1...2).contains(arguments.count), let property = text(0) else { return invalid }
            guard arguments.count == 1 || number(1) != nil else { return invalid }
            return .success(.add(property, number(1) ?? 1))
        case "seek":
            guard (1...3).contains(arguments.count), let target = number(0) else { return invalid }
            // Flags such as "absolute+exact" or "relative+keyframes": the first word decides.
            let flags = (text(1) ?? "relative").split(separator: "+").map(String.init)
            guard let mode = flags.lazy.compactMap(MpvCommand.SeekMode.init(rawValue:)).first ?? (flags.allSatisfy { ["exact", "keyframes"].contains($0) } ? .relative : nil)
            else { return invalid }
            return .success(.seek(target, mode))
        case "playlist-next": return .success(.playlistNext)
        case "ab-loop", "frame-step", "frame-back-step":
            guard arguments.isEmpty else { return invalid }
            return .success(name == "ab-loop" ? .abLoop : name == "frame-step" ? .frameStep : .frameBackStep)
        case "playlist-prev": return .success(.playlistPrevious)
        case "quit":
            guard arguments.count <= 1 else { return invalid }
            guard let argument = arguments.first else { return .success(.quit(nil)) }
            guard let code = argument.wholeNumber(in: Int32(0)...255) else { return invalid }
            return .success(.quit(code))
        default:
            return invalid
        }
    }
}

/// An mpv command that cannot run, with mpv's error string (`invalid parameter`, `property not
/// found`, `property unavailable`, …). A plain value; any thread.
public struct MpvFailure: Error, Equatable, Sendable {
    /// mpv's error string, the reply's `error`.
    public var message: String
    /// A failure with mpv's error string `message`.
    public init(_ message: String) { self.message = message }
    /// A property no client can read or write.
    public static let notFound = MpvFailure("property not found")
    /// A property without a value now (or that may not be set).
    public static let unavailable = MpvFailure("property unavailable")
    /// A value of the wrong type for the property or command.
    public static let badFormat = MpvFailure("unsupported format for accessing property")
    /// A command that ran and failed.
    public static let commandFailed = MpvFailure("error running command")
}

/// How the mpv commands read a value from a client (`set_property`'s value, `add`'s amount, a
/// `seek` target): every number through one checked conversion, never `Int(_:)` on a Double.
/// Pure; any thread.
public enum MpvArgument {
    /// mpv's flag values: `true`/`false`, `"yes"`/`"no"` (and `"true"`/`"false"`).
    public static func flag(_ value: JSONValue) -> Bool? {
        switch value {
        case .bool(let flag): flag
        case .string("yes"), .string("true"): true
        case .string("no"), .string("false"): false
        default: nil
        }
    }

    /// A finite number given as a JSON number or as text; nil for anything else.
    public static func number(_ value: JSONValue) -> Double? {
        switch value {
        case .int(let number): Double(number)
        case .double(let number) where number.isFinite: number
        case .string(let text): Double(text.trimmingWhitespace()).flatMap { $0.isFinite ? $0 : nil }
        default: nil
        }
    }

    /// An index property's value (`playlist-pos`, `chapter`, `aid`…): a whole number from `lowest`
    /// up, as a JSON number or as text (``JSONValue/wholeNumber(in:)``, the one checked
    /// conversion). A number that is no such whole number (`1e19`, `-1`, `1.5`) is
    /// `invalid parameter`; a value that is no number at all is `unsupported format for accessing property`.
    public static func index(_ value: JSONValue, from lowest: Int) -> Result<Int, MpvFailure> {
        if let index = value.wholeNumber(in: lowest...Int.max) { return .success(index) }
        return .failure(number(value) == nil ? .badFormat : MpvFailure(MpvRequest.invalidParameter))
    }
}
