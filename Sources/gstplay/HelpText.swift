#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The texts shared by `--help`, the console's `help` and the `?` key. Pure; any thread.
enum HelpText {
    /// Key bindings, one per line.
    static var keys: [String] {
        columns(KeyAction.bindings.map { ($0.keys, $0.summary) })
    }

    /// Console commands, one per line.
    static var commands: [String] {
        columns(ConsoleCommand.usage.map { ($0.syntax, $0.summary) })
    }

    /// Two columns, indented by two: the first as wide as its widest entry plus two spaces, so
    /// no entry runs into its summary (issue 22: `n / p, > / <next / previous item`).
    static func columns(_ rows: [(String, String)]) -> [String] {
        let width = (rows.map(\.0.count).max() ?? 0) + 2
        return rows.map { "  " + $0.0.padded(toLength: width) + $0.1 }
    }

    /// The `--help` discussion: keys, console, JSON, exit codes.
    static var discussion: String {
        """
        Plays each URI or path in turn (directories expand to their files, sorted). \
        Without a display or audio device, fake sinks are used automatically (a note says so).

        KEYS (when stdin and stdout are terminals):
        \(keys.joined(separator: "\n"))

        CONSOLE (when stdin is not a terminal, or with --json): one command per line, \
        case-insensitive; a bad line gets one 'error: ...' line and playback goes on. \
        End of input is not an error: playback continues to the end.
        \(commands.joined(separator: "\n"))

        JSON (--json): JSON Lines on stdout (hello, then every player event); commands as text \
        or {"command": ["seek", "+10"], "request_id": 7}, each answered by \
        {"request_id": 7, "error": "success", "data": ...}. See docs/PROTOCOL.md.

        EXIT CODES: 0 played to the end or quit; 1 an item failed to play; 2 usage error; \
        4 the control socket (--input-ipc-server) could not be made; 5 the web remote (--remote) \
        could not listen; \
        130 SIGINT; 143 SIGTERM.
        """
    }
}
