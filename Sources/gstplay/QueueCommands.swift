import Backend
import BackendControl
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The play-queue console commands: `playlist`, `playlist save <path>`, `jump N`,
/// `remove N`, `move A B`, `clear`, `shuffle on|off`, `loop none|one|all`. Indexes are 0-based,
/// as `playlist` lists them and the JSON `item`/`playlist` events give them. Pure parsing; any thread.
enum QueueConsoleCommand: Equatable, Sendable {
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

    typealias Parsed = Result<ConsoleCommand, ConsoleError>

    /// `playlist` or `playlist save <path>` (the rest of the line is the path).
    static func parsePlaylist(_ arguments: ConsoleCommand.Arguments) -> Parsed {
        guard let first = arguments.words.first else { return .success(.queue(.list)) }
        guard first.lowercased() == "save" else {
            return .failure(ConsoleError("playlist: unexpected argument '\(ConsoleCommand.printable(first))' (expected nothing or 'save <path>')"))
        }
        let path = arguments.rest.dropFirst(first.count).trimmingWhitespace()
        guard !path.isEmpty else { return .failure(ConsoleError("playlist save: missing argument (expected a file path)")) }
        return .success(.queue(.save(path)))
    }

    static func parseJump(_ arguments: ConsoleCommand.Arguments) -> Parsed {
        arguments.one("an item number").flatMap { index(of: $0, for: arguments.name) }.map { .queue(.jump($0)) }
    }

    static func parseRemove(_ arguments: ConsoleCommand.Arguments) -> Parsed {
        arguments.one("an item number").flatMap { index(of: $0, for: arguments.name) }.map { .queue(.remove($0)) }
    }

    static func parseMove(_ arguments: ConsoleCommand.Arguments) -> Parsed {
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

    static func parseShuffle(_ arguments: ConsoleCommand.Arguments) -> Parsed {
        arguments.one("on or off").flatMap { argument in
            switch argument.lowercased() {
            case "on": return .success(.queue(.shuffle(true)))
            case "off": return .success(.queue(.shuffle(false)))
            default: return .failure(ConsoleError("shuffle: expected 'on' or 'off', got '\(ConsoleCommand.printable(argument))'"))
            }
        }
    }

    static func parseLoop(_ arguments: ConsoleCommand.Arguments) -> Parsed {
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

/// Running the queue commands and `next`/`prev`/`load` against the Backend's queue
/// (``Player/currentQueue()`` and the `Player+Queue` calls). Each first awaits the commands
/// before it (without blocking a thread), so a reply always reflects them, and awaits its own
/// before replying (``PlaybackController/commandsRan()``), so the inputs after it see the
/// Backend's new load and current item; index errors come back as one line.
///
/// **Thread:** the ``PlaybackController`` actor.
extension PlaybackController {
    /// `next`, `prev`, `load <location>`.
    func navigate(_ command: ConsoleCommand) async -> Outcome {
        let queue = await player.currentQueue()
        switch command {
        case .next:
            guard !queue.items.isEmpty else { return .failure("next: the playlist is empty") }
            guard queue.nextIndex != nil else { return .failure("next: already at the last item") }
            player.advanceToNextItem()
        case .prev:
            guard !queue.items.isEmpty else { return .failure("prev: the playlist is empty") }
            guard queue.previousIndex != nil else { return .failure("prev: already at the first item") }
            player.returnToPreviousItem()
        case .load(let location):
            let uri: String
            do {
                uri = try MediaLocation.uri(for: location)
            } catch {
                return .failure("load: \(error.message)")
            }
            names[uri] = location
            player.playNow(withResumePosition(QueueItem(uri: uri)))
        default:
            break
        }
        await commandsRan()
        return .success
    }

    /// One queue command.
    func execute(_ command: QueueConsoleCommand) async -> Outcome {
        let queue = await player.currentQueue()                    // also brings the index checks up to date
        do {
            switch command {
            case .list:
                return playlistOutcome(queue)
            case .save(let path):
                let items = queue.items
                guard !items.isEmpty else { return .failure("playlist save: the playlist is empty") }
                do {
                    try PlaylistFile.saveM3U(items, to: path)
                } catch {
                    return .failure("playlist save: \(error.description)")
                }
                return Outcome(text: ["playlist: saved \(items.count) item\(items.count == 1 ? "" : "s") to \(path)"])
            case .jump(let index):
                try player.jumpInQueue(to: index)
            case .remove(let index):
                try player.removeFromQueue(at: index)
            case .move(let from, let to):
                try player.moveInQueue(from: from, to: to)
            case .clear:
                player.clearQueue()
            case .shuffle(let on):
                // Turning it on draws a new order; asking again while on keeps the current pass.
                player.setShuffled(on, seed: on && !queue.shuffled ? UInt64.random(in: 0 ... .max) : nil)
            case .loop(let mode):
                player.setLoopMode(mode)
            }
        } catch {
            return .failure("\(command.name): \(error.description)")
        }
        await commandsRan()
        return .success
    }

    /// The `playlist` answer: a header (with the total of the known durations) and one line per
    /// item (`>` marks the current one; its title — the media's tag, else the playlist file's —
    /// and its duration once known; `unplayable` when the discoverer found it so), or the
    /// `playlist` event's fields with the items' details as JSON data.
    func playlistOutcome(_ queue: QueueSnapshot) -> Outcome {
        let count = queue.items.isEmpty ? "empty" : "\(queue.items.count) item\(queue.items.count == 1 ? "" : "s")"
        var header = "playlist: \(count), loop \(queue.loop.rawValue), shuffle \(queue.shuffled ? "on" : "off"), gapless \(queue.gapless ? "on" : "off")"
        if queue.knownDurationCount > 0 {
            let unknown = queue.items.count - queue.knownDurationCount
            header += ", total \(queue.totalDuration.formatted())" + (unknown > 0 ? " (\(unknown) unknown)" : "")
        }
        let lines = queue.items.enumerated().map { index, item in
            let name = name(of: item.uri)
            var line = "\(index == queue.currentIndex ? ">" : " ") \(index): " + (item.knownTitle.map { "\($0) (\(name))" } ?? name)
            if let duration = item.knownDuration { line += "  \(duration.formatted())" }
            if item.info?.isPlayable == false { line += "  unplayable" }
            return line
        }
        return Outcome(data: .playlist(WireEvents.Playlist(queue, detailed: true)), text: [header] + lines)
    }
}

extension QueueConsoleCommand {
    /// The command word, for error lines.
    var name: String {
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
