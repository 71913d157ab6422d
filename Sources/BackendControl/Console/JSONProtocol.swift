import Backend
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Reading `--json` requests (version 1, see docs/PROTOCOL.md). The lines written back are the
/// `Encodable` types in Wire/. Pure functions over values; any thread.
public enum JSONProtocol {
    /// A parsed request line (a plain value).
    public struct Request: Equatable, Sendable {
        /// The `request_id` to echo in the reply.
        public var id: RequestID
        /// The command, or why the line is not one.
        public var command: Result<ConsoleCommand, ConsoleError>
    }

    /// Parses one input line in `--json` mode. A line starting with `{`, `[` or `"` is JSON:
    /// `{"command": ["seek", "+10"], "request_id": 7}` or `{"command": "pause"}`; anything
    /// else is a text command.
    public static func parseRequest(_ line: String) -> Request {
        let trimmed = line.trimmingWhitespaceAndNewlines()
        guard let first = trimmed.first, first == "{" || first == "[" || first == "\"" else {
            return Request(id: .absent, command: ConsoleCommand.parse(trimmed))
        }
        func failure(_ message: String, id: RequestID = .null) -> Request {
            Request(id: id, command: .failure(ConsoleError(message)))
        }
        let value: JSONValue
        do {
            value = try JSONValue.parse(trimmed)
        } catch {
            return failure("invalid JSON: \(error.message)")
        }
        guard case .object(let members) = value else {
            return failure("a request must be a JSON object such as {\"command\": [\"pause\"], \"request_id\": 1}")
        }
        var id = RequestID.null
        if let given = members["request_id"] {
            switch given {
            case .null: id = .null
            case .int(let number): id = .int(number)
            case .double(let number): id = .double(number)
            case .string(let text): id = .string(text)
            default: return failure("\"request_id\" must be a number or a string")
            }
        }
        guard let command = members["command"] else { return failure("missing \"command\"", id: id) }
        switch command {
        case .string(let text):
            return Request(id: id, command: ConsoleCommand.parse(text))
        case .array(let items):
            var words: [String] = []
            for item in items {
                switch item {
                case .string(let text): words.append(text)
                case .int, .double: words.append(item.numberWord ?? "")
                case .bool(let flag): words.append(flag ? "on" : "off")
                default: return failure("\"command\" items must be strings or numbers", id: id)
                }
            }
            return Request(id: id, command: ConsoleCommand.parse(words: words))
        default:
            return failure("\"command\" must be a string or an array of strings", id: id)
        }
    }
}
