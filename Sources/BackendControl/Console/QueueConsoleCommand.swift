import Backend
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The play-queue console commands: `playlist`, `playlist save <path>`, `jump N`,
/// `remove N`, `move A B`, `clear`, `shuffle on|off`, `loop none|one|all`. Indexes are 0-based,
/// as `playlist` lists them and the JSON `item`/`playlist` events give them. Pure parsing; any thread.
public enum QueueConsoleCommand: Equatable, Sendable {
    /// `playlist`: the items with the current one marked.
    case list
    /// `playlist save <path>`: the items as an extended M3U file.
    case save(String)
    case jump(Int)
    case remove(Int)
    case move(from: Int, to: Int)
    case clear
    case shuffle(Bool)
    case loop(LoopMode)

    /// What a queue command's parser gives: the command, or the error line.
    public typealias Parsed = Result<ConsoleCommand, ConsoleError>

    /// `playlist` or `playlist save <path>` (the rest of the line is the path).
    public static func parsePlaylist(_ arguments: ConsoleCommand.Arguments) -> Parsed {
        guard let first = arguments.words.first else { return .success(.queue(.list)) }
        guard first.lowercased() == "save" else {
            return .failure(ConsoleError("playlist: unexpected argument '\(ConsoleCommand.printable(first))' (expected nothing or 'save <path>')"))
        }
        let path = arguments.rest.dropFirst(first.count).trimmingWhitespace()
        guard !path.isEmpty else { return .failure(ConsoleError("playlist save: missing argument (expected a file path)")) }
        return .success(.queue(.save(path)))
    }

    package static func parseJump(_ arguments: ConsoleCommand.Arguments) -> Parsed {
        arguments.one("an item number").flatMap { index(of: $0, for: arguments.name) }.map { .queue(.jump($0)) }
    }

    package static func parseRemove(_ arguments: ConsoleCommand.Arguments) -> Parsed {
        arguments.one("an item number").flatMap { index(of: $0, for: arguments.name) }.map { .queue(.remove($0)) }
    }

    package static func parseMove(_ arguments: ConsoleCommand.Arguments) -> Parsed {
        guard arguments.words.count == 2 else {
            if arguments.words.count > 2 {
                return .failure(ConsoleError("move: unexpected argument '\(ConsoleCommand.printable(arguments.words[2]))'"))
            }
            return .failure(ConsoleError("move: missing argument (expected two item numbers: from and to)"))
        }
        return index(of: arguments.words[0], for: "move").flatMap { from in
            index(of: arguments.words[1], for: "move").map { to in .queue(.move(from: from, to: to)) }
        }
    }

    package static func parseShuffle(_ arguments: ConsoleCommand.Arguments) -> Parsed {
        arguments.one("on or off").flatMap { argument in
            switch argument.lowercased() {
            case "on": return .success(.queue(.shuffle(true)))
            case "off": return .success(.queue(.shuffle(false)))
            default: return .failure(ConsoleError("shuffle: expected 'on' or 'off', got '\(ConsoleCommand.printable(argument))'"))
            }
        }
    }

    package static func parseLoop(_ arguments: ConsoleCommand.Arguments) -> Parsed {
        arguments.one("none, one or all").flatMap { argument in
            guard let mode = LoopMode(rawValue: argument.lowercased()) else {
                return .failure(ConsoleError("loop: expected 'none', 'one' or 'all', got '\(ConsoleCommand.printable(argument))'"))
            }
            return .success(.queue(.loop(mode)))
        }
    }

    private static func index(of text: String, for name: String) -> Result<Int, ConsoleError> {
        guard let value = Int(text), value >= 0, text.allSatisfy({ $0.isASCII && $0.isNumber }) else {
            return .failure(ConsoleError("\(name): expected an item number (0, 1, … as 'playlist' lists them), got '\(ConsoleCommand.printable(text))'"))
        }
        return .success(value)
    }
}

extension QueueConsoleCommand {
    /// The command word, for error lines.
    public var name: String {
        switch self {
        case .list: "playlist"
        case .save: "playlist save"
        case .jump: "jump"
        case .remove: "remove"
        case .move: "move"
        case .clear: "clear"
        case .shuffle: "shuffle"
        case .loop: "loop"
        }
    }
}
