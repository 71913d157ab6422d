import Backend
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A wrong command or argument, with the one-line message the user sees after `error: `.
/// A plain value; any thread.
public struct ConsoleError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The message, without the `error: ` prefix.
    public var message: String
    /// An error with `message`.
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

/// One console command (line console, JSON protocol, and — via `InputBindings` — the keys).
/// Pure parsing; any thread.
public enum ConsoleCommand: Equatable, Sendable {
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
    /// Adaptive streams: list the variants.
    case variants
    /// Adaptive streams: pin variant N (`nil`: automatic selection).
    case variant(Int?)
    /// Writes the frame on screen as PNG (or JPEG for a `.jpg` path); nil: the default name.
    case snapshot(String?, osd: Bool = false)
    /// The play queue: `playlist`, `jump`, `remove`, `move`, `clear`, `shuffle`, `loop` (PlayerControl+Queue.swift).
    case queue(QueueConsoleCommand)
    /// Tracks: list; select (nil: subtitles off); add a subtitle file; offsets in ms.
    case tracks
    case track(TrackKind, Int?)
    case subFile(String)
    case subOffset(Int64)
    case audioOffset(Int64)
    /// Drawn subtitles shown / hidden (nil: toggle) and the OSD (nil: the progress bar).
    case subVisibility(Bool?)
    case osd(String?)
    /// Chapters: list; seek to chapter N, the next or the previous one.
    case chapters
    case chapter(ChapterArgument)
    /// Writes the media's cover art; nil: `gstplay-<name>-cover.png`.
    case cover(String?)
    /// Casting: list the renderers (starts discovery); cast to one, or off.
    case renderers
    case cast(CastArgument)
    /// The A-B loop (mpv's `ab-loop` command and `ab-loop-a`/`-b`/`-count` properties).
    case abLoop(ABLoopChange)
    /// One frame forward / back, pausing (mpv's `frame-step`, `frame-back-step`).
    case frameStep(forward: Bool)
    /// mpv's `cycle` for the keys: pause, mute, sub-visibility, fullscreen, the next track, the next renderer.
    case cycle(CycleTarget)
    /// mpv's `add`: volume (percent) or speed by an amount.
    case add(AddTarget, Double)
    /// The key bindings in force (the `?` key).
    case keys

    /// One registered command: its name (the first word), the syntax and summary `help` shows,
    /// and the parser for its arguments. A plain value; any thread.
    public struct Registration: Sendable {
        /// The command's name (its first word).
        public var name: String
        /// Its syntax as `help` shows it, e.g. `seek <[+|-]seconds|percent%>`.
        public var syntax: String
        /// One line saying what it does.
        public var summary: String
        package var parse: @Sendable (Arguments) -> Result<ConsoleCommand, ConsoleError>
    }

    /// A command's arguments: the words after the name, and the rest of the line as typed.
    public struct Arguments: Sendable {
        /// The command word, lowercased (for messages).
        public var name: String
        package var words: [String]
        package var rest: String

        /// Success when there are no arguments.
        public func none(_ command: ConsoleCommand) -> Result<ConsoleCommand, ConsoleError> {
            words.isEmpty ? .success(command) : .failure(ConsoleError("\(name): unexpected argument '\(printable(words[0]))'"))
        }

        /// The single argument; `what` describes it in the error for a missing one.
        public func one(_ what: String) -> Result<String, ConsoleError> {
            guard let first = words.first else { return .failure(ConsoleError("\(name): missing argument (expected \(what))")) }
            guard words.count == 1 else { return .failure(ConsoleError("\(name): unexpected argument '\(printable(words[1]))'")) }
            return .success(first)
        }
    }

    /// THE place to add a console command (text console, JSON protocol, `help`): one entry here,
    /// one enum case above, and its action in `PlaybackController.execute(_:)`.
    public static let registry: [Registration] = [
        Registration(name: "play", syntax: "play", summary: "play (restarts at the end, reloads after stop)") { $0.none(.play) },
        Registration(name: "pause", syntax: "pause", summary: "pause") { $0.none(.pause) },
        Registration(name: "toggle", syntax: "toggle", summary: "pause when playing, play otherwise") { $0.none(.toggle) },
        Registration(name: "stop", syntax: "stop", summary: "stop (back to idle; 'play' reloads)") { $0.none(.stop) },
        Registration(name: "seek", syntax: "seek <time>", summary: "seek to 90, 1:30, 1:02:03.5, by +10 / -5, or to 50%") { arguments in
            arguments.one("a time: \(SeekArgument.formats)").flatMap { argument in
                SeekArgument.parse(argument).map(ConsoleCommand.seek).mapError { ConsoleError("seek: \($0.message)") }
            }
        },
        Registration(name: "rate", syntax: "rate <x>", summary: "playback rate, e.g. 1.5 or -1 (-1 to 2, not 0)") { arguments in
            arguments.one("a rate such as 1.5").flatMap { argument in
                guard let value = StrictNumber.signed(argument) else {
                    return .failure(ConsoleError("rate: invalid number '\(printable(argument))'"))
                }
                return .success(.rate(value))
            }
        },
        Registration(name: "volume", syntax: "volume <0-100>", summary: "volume in percent (perceptual scale, like gst-play)") { arguments in
            arguments.one("a volume from 0 to 100").flatMap { argument in
                guard let value = StrictNumber.unsigned(argument.hasSuffix("%") ? String(argument.dropLast()) : argument) else {
                    return .failure(ConsoleError("volume: invalid number '\(printable(argument))' (expected 0-100)"))
                }
                guard value <= 100 else { return .failure(ConsoleError("volume: '\(printable(argument))' is out of range 0-100")) }
                return .success(.volume(value))
            }
        },
        Registration(name: "mute", syntax: "mute [on|off]", summary: "mute, unmute, or toggle without an argument") { arguments in
            if arguments.words.isEmpty { return .success(.mute(nil)) }
            return arguments.one("on or off").flatMap { argument in
                switch argument.lowercased() {
                case "on": return .success(.mute(true))
                case "off": return .success(.mute(false))
                default: return .failure(ConsoleError("mute: expected 'on' or 'off', got '\(printable(argument))'"))
                }
            }
        },
        Registration(name: "status", syntax: "status", summary: "state, position, duration, rate, volume, item") { $0.none(.status) },
        Registration(name: "stats", syntax: "stats", summary: "playback statistics") { $0.none(.stats) },
        Registration(name: "next", syntax: "next", summary: "next playlist item") { $0.none(.next) },
        Registration(name: "prev", syntax: "prev", summary: "previous playlist item") { $0.none(.prev) },
        Registration(name: "load", syntax: "load <uri-or-path>", summary: "play this now (inserted after the current item)") { arguments in
            guard !arguments.rest.isEmpty else { return .failure(ConsoleError("load: missing argument (expected a URI or path)")) }
            return .success(.load(arguments.rest))
        },
        Registration(name: "playlist", syntax: "playlist [save <path>]", summary: "list the items (current marked), or save them as .m3u") {
            QueueConsoleCommand.parsePlaylist($0)
        },
        Registration(name: "jump", syntax: "jump <N>", summary: "play item N (0-based, as 'playlist' lists them)") { QueueConsoleCommand.parseJump($0) },
        Registration(name: "remove", syntax: "remove <N>", summary: "remove item N (the current one: play the next)") { QueueConsoleCommand.parseRemove($0) },
        Registration(name: "move", syntax: "move <A> <B>", summary: "move item A to position B") { QueueConsoleCommand.parseMove($0) },
        Registration(name: "clear", syntax: "clear", summary: "remove every item and stop") { $0.none(.queue(.clear)) },
        Registration(name: "shuffle", syntax: "shuffle on|off", summary: "shuffled play order (a new order each pass)") { QueueConsoleCommand.parseShuffle($0) },
        Registration(name: "loop", syntax: "loop none|one|all", summary: "at the end of an item: stop at the last, repeat it, or repeat the list") {
            QueueConsoleCommand.parseLoop($0)
        },
        Registration(name: "variants", syntax: "variants", summary: "adaptive stream: list the variants") { $0.none(.variants) },
        Registration(name: "variant", syntax: "variant <N|auto>", summary: "adaptive stream: pin variant N, or automatic") { AdaptiveCommands.parseVariant($0) },
        Registration(name: "snapshot", syntax: "snapshot [path]",
                     summary: "write the frame on screen to gstplay-<name>-<HH-MM-SS.mmm>.png (or path/dir); 'snapshot --osd [path]': with the OSD") { arguments in
            SnapshotFile.parse(arguments.rest)
        },
        Registration(name: "tracks", syntax: "tracks", summary: "list the video, audio and subtitle tracks (* = selected)") { $0.none(.tracks) },
        Registration(name: "track", syntax: "track <type> <N|none>", summary: "select track N of audio, subtitle or video (none: subtitles off)") {
            TrackCommands.parseTrack($0)
        },
        Registration(name: "sub-file", syntax: "sub-file <path>", summary: "add an external subtitle file (.srt, .vtt, .ass) and show it") { arguments in
            guard !arguments.rest.isEmpty else { return .failure(ConsoleError("sub-file: missing argument (expected a path)")) }
            return .success(.subFile(arguments.rest))
        },
        Registration(name: "sub-offset", syntax: "sub-offset <ms>", summary: "show subtitles N ms later (negative: earlier)") {
            TrackCommands.parseOffset($0, ConsoleCommand.subOffset)
        },
        Registration(name: "audio-offset", syntax: "audio-offset <ms>", summary: "audio/video offset in ms (playbin av-offset)") {
            TrackCommands.parseOffset($0, ConsoleCommand.audioOffset)
        },
        Registration(name: "sub-visibility", syntax: "sub-visibility [yes|no|toggle]", summary: "show / hide subtitles drawn on the video") {
            OverlayCommands.parseVisibility($0)
        },
        Registration(name: "osd", syntax: "osd [text]", summary: "on-screen display: the progress bar, or the text") {
            OverlayCommands.parseOSD($0)
        },
        Registration(name: "chapters", syntax: "chapters", summary: "list the chapters (* = the one playing)") { $0.none(.chapters) },
        Registration(name: "chapter", syntax: "chapter <N|next|prev>", summary: "go to chapter N, the next, or the previous (within 2 s of a start; else this one's start)") {
            ChapterCommands.parse($0)
        },
        Registration(name: "cover", syntax: "cover [path]", summary: "write the media's cover art to gstplay-<name>-cover.png (or path/dir; .jpg: JPEG)") { arguments in
            .success(.cover(arguments.rest.isEmpty ? nil : arguments.rest))
        },
        Registration(name: "renderers", syntax: "renderers", summary: "list the UPnP/DLNA renderers found (starts looking; * = cast to)") { $0.none(.renderers) },
        Registration(name: "cast", syntax: "cast <N|name|auto|off>", summary: "play on renderer N of 'renderers' (or by name, the first: auto); off: back here") {
            CastCommands.parse($0)
        },
        Registration(name: "ab-loop", syntax: "ab-loop [A B|off]", summary: "A-B loop: set A here, then B (loops from A), then clear; or loop A to B; off: clear") {
            SteppingCommands.parseLoop($0)
        },
        Registration(name: "ab-loop-a", syntax: "ab-loop-a <time|no>", summary: "set (or unset) the A-B loop's A point") { SteppingCommands.parsePoint($0) },
        Registration(name: "ab-loop-b", syntax: "ab-loop-b <time|no>", summary: "set (or unset) the A-B loop's B point") { SteppingCommands.parsePoint($0) },
        Registration(name: "ab-loop-count", syntax: "ab-loop-count <N|inf>", summary: "loop N times (default inf), then play on; 0: no looping") {
            SteppingCommands.parseCount($0)
        },
        Registration(name: "frame-step", syntax: "frame-step", summary: "pause and show the next video frame") { $0.none(.frameStep(forward: true)) },
        Registration(name: "frame-back-step", syntax: "frame-back-step", summary: "pause and show the previous video frame") { $0.none(.frameStep(forward: false)) },
        Registration(name: "playlist-next", syntax: "playlist-next", summary: "next playlist item (mpv's name for 'next')") { $0.none(.next) },
        Registration(name: "playlist-prev", syntax: "playlist-prev", summary: "previous playlist item (mpv's name for 'prev')") { $0.none(.prev) },
        Registration(name: "cycle", syntax: "cycle <what>", summary: "toggle or step: \(CycleTarget.allCases.map(\.rawValue).joined(separator: ", "))") {
            KeyCommands.parseCycle($0)
        },
        Registration(name: "add", syntax: "add volume|speed <n>", summary: "volume + n percent (0-100), or rate + n (to a tenth, skipping 0)") {
            KeyCommands.parseAdd($0)
        },
        Registration(name: "keys", syntax: "keys", summary: "the key bindings in force (input.conf)") { $0.none(.keys) },
        Registration(name: "help", syntax: "help", summary: "this list") { $0.none(.help) },
        Registration(name: "quit", syntax: "quit", summary: "quit") { $0.none(.quit) },
    ]

    /// Every command with its argument syntax and a short description, for `help`.
    public static var usage: [(syntax: String, summary: String)] { registry.map { ($0.syntax, $0.summary) } }

    private static let byName: [String: Registration] = Dictionary(registry.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })

    /// Parses a text line: a command word (case-insensitive) and its arguments, separated by
    /// any amount of spaces or tabs. Blank lines are the caller's business (they are ignored by
    /// the console); here they are an error.
    public static func parse(_ line: String) -> Result<ConsoleCommand, ConsoleError> {
        let trimmed = line.trimmingWhitespaceAndNewlines()
        guard let wordEnd = trimmed.firstIndex(where: { $0 == " " || $0 == "\t" }) else {
            return parse(word: trimmed, arguments: [], rest: "")
        }
        let word = String(trimmed[..<wordEnd])
        let rest = trimmed[wordEnd...].trimmingWhitespace()
        let arguments = rest.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
        return parse(word: word, arguments: arguments, rest: rest)
    }

    /// Parses a command given as words, as in the JSON form `["seek", "+10"]`.
    public static func parse(words: [String]) -> Result<ConsoleCommand, ConsoleError> {
        guard let first = words.first else { return .failure(ConsoleError("empty command")) }
        let word = first.trimmingWhitespace()
        let arguments = words.dropFirst().map { $0.trimmingWhitespace() }.filter { !$0.isEmpty }
        return parse(word: word, arguments: Array(arguments), rest: arguments.joined(separator: " "))
    }

    private static func parse(word: String, arguments: [String], rest: String) -> Result<ConsoleCommand, ConsoleError> {
        let name = word.lowercased()
        guard !name.isEmpty else { return .failure(ConsoleError("empty command")) }
        guard let registration = byName[name] else {
            return .failure(ConsoleError("unknown command '\(Self.printable(word))' (type 'help' for the list)"))
        }
        return registration.parse(Arguments(name: name, words: arguments, rest: rest))
    }

    /// `text` shortened to 40 characters, for error messages; control characters are escaped
    /// (`TerminalText/escaped(_:)`) before the cut, so a cut never leaves one raw.
    public static func printable(_ text: String) -> String {
        let cleaned = TerminalText.escaped(text)
        return cleaned.count > 40 ? String(cleaned.prefix(40)) + "…" : cleaned
    }
}
