import Foundation

/// A wrong command or argument, with the one-line message the user sees after `error: `.
/// A plain value; any thread.
struct ConsoleError: Error, Equatable, Sendable, CustomStringConvertible {
    var message: String
    init(_ message: String) { self.message = message }
    var description: String { message }
}

/// One console command (line console, JSON protocol, and — via ``KeyAction`` — the keys).
/// Pure parsing; any thread.
enum ConsoleCommand: Equatable, Sendable {
    case play
    case pause
    case toggle
    case stop
    case seek(SeekArgument)
    /// Playback rate (validated by the Backend: non-zero, within its rate range).
    case rate(Double)
    /// Perceptual (cubic) volume in percent, 0…100.
    case volume(Double)
    /// `nil` toggles.
    case mute(Bool?)
    case status
    case stats
    case next
    case prev
    /// A URI or path, played now (inserted after the current playlist item).
    case load(String)
    case help
    case quit

    /// Every command with its argument syntax and a short description, for `help`.
    static let usage: [(syntax: String, summary: String)] = [
        ("play", "play (restarts at the end, reloads after stop)"),
        ("pause", "pause"),
        ("toggle", "pause when playing, play otherwise"),
        ("stop", "stop (back to idle; 'play' reloads)"),
        ("seek <time>", "seek to 90, 1:30, 1:02:03.5, by +10 / -5, or to 50%"),
        ("rate <x>", "playback rate, e.g. 1.5 or -1 (-1 to 2, not 0)"),
        ("volume <0-100>", "volume in percent (perceptual scale, like gst-play)"),
        ("mute [on|off]", "mute, unmute, or toggle without an argument"),
        ("status", "state, position, duration, rate, volume, item"),
        ("stats", "playback statistics"),
        ("next", "next playlist item"),
        ("prev", "previous playlist item"),
        ("load <uri-or-path>", "play this now (inserted after the current item)"),
        ("help", "this list"),
        ("quit", "quit"),
    ]

    /// Parses a text line: a command word (case-insensitive) and its arguments, separated by
    /// any amount of spaces or tabs. Blank lines are the caller's business (they are ignored by
    /// the console); here they are an error.
    static func parse(_ line: String) -> Result<ConsoleCommand, ConsoleError> {
        let trimmed = line.trimmingCharacters(in: .whitespacesAndNewlines)
        guard let wordEnd = trimmed.firstIndex(where: { $0 == " " || $0 == "\t" }) else {
            return parse(word: trimmed, arguments: [], rest: "")
        }
        let word = String(trimmed[..<wordEnd])
        let rest = trimmed[wordEnd...].trimmingCharacters(in: .whitespaces)
        let arguments = rest.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
        return parse(word: word, arguments: arguments, rest: rest)
    }

    /// Parses a command given as words, as in the JSON form `["seek", "+10"]`.
    static func parse(words: [String]) -> Result<ConsoleCommand, ConsoleError> {
        guard let first = words.first else { return .failure(ConsoleError("empty command")) }
        let word = first.trimmingCharacters(in: .whitespaces)
        let arguments = words.dropFirst().map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        return parse(word: word, arguments: Array(arguments), rest: arguments.joined(separator: " "))
    }

    private static func parse(word: String, arguments: [String], rest: String) -> Result<ConsoleCommand, ConsoleError> {
        let name = word.lowercased()
        func noArguments(_ command: ConsoleCommand) -> Result<ConsoleCommand, ConsoleError> {
            arguments.isEmpty ? .success(command) : .failure(ConsoleError("\(name): unexpected argument '\(printable(arguments[0]))'"))
        }
        func oneArgument(_ what: String) -> Result<String, ConsoleError> {
            guard let first = arguments.first else { return .failure(ConsoleError("\(name): missing argument (expected \(what))")) }
            guard arguments.count == 1 else { return .failure(ConsoleError("\(name): unexpected argument '\(printable(arguments[1]))'")) }
            return .success(first)
        }
        switch name {
        case "": return .failure(ConsoleError("empty command"))
        case "play": return noArguments(.play)
        case "pause": return noArguments(.pause)
        case "toggle": return noArguments(.toggle)
        case "stop": return noArguments(.stop)
        case "status": return noArguments(.status)
        case "stats": return noArguments(.stats)
        case "next": return noArguments(.next)
        case "prev": return noArguments(.prev)
        case "help": return noArguments(.help)
        case "quit": return noArguments(.quit)
        case "seek":
            return oneArgument("a time: \(SeekArgument.formats)").flatMap { argument in
                SeekArgument.parse(argument).map(ConsoleCommand.seek).mapError { ConsoleError("seek: \($0.message)") }
            }
        case "rate":
            return oneArgument("a rate such as 1.5").flatMap { argument in
                guard let value = StrictNumber.signed(argument) else {
                    return .failure(ConsoleError("rate: invalid number '\(printable(argument))'"))
                }
                return .success(.rate(value))
            }
        case "volume":
            return oneArgument("a volume from 0 to 100").flatMap { argument in
                guard let value = StrictNumber.unsigned(argument.hasSuffix("%") ? String(argument.dropLast()) : argument) else {
                    return .failure(ConsoleError("volume: invalid number '\(printable(argument))' (expected 0-100)"))
                }
                guard value <= 100 else { return .failure(ConsoleError("volume: '\(printable(argument))' is out of range 0-100")) }
                return .success(.volume(value))
            }
        case "mute":
            if arguments.isEmpty { return .success(.mute(nil)) }
            return oneArgument("on or off").flatMap { argument in
                switch argument.lowercased() {
                case "on": return .success(.mute(true))
                case "off": return .success(.mute(false))
                default: return .failure(ConsoleError("mute: expected 'on' or 'off', got '\(printable(argument))'"))
                }
            }
        case "load":
            guard !rest.isEmpty else { return .failure(ConsoleError("load: missing argument (expected a URI or path)")) }
            return .success(.load(rest))
        default:
            return .failure(ConsoleError("unknown command '\(Self.printable(word))' (type 'help' for the list)"))
        }
    }

    /// `text` shortened to 40 characters with control characters replaced, for error messages.
    static func printable(_ text: String) -> String {
        let cleaned = String(text.unicodeScalars.map { $0.value < 0x20 || $0.value == 0x7F ? "?" : Character($0) })
        return cleaned.count > 40 ? String(cleaned.prefix(40)) + "…" : cleaned
    }
}
