import BackendControl
import FoundationEssentials

/// The `--help` texts (the key and command tables are BackendControl's: `InputBindings`,
/// `ConsoleCommand`). Pure; any thread.
enum HelpText {
    /// The subcommands named by the first argument (``CommandRouting/subcommands``, plus `help`),
    /// each with a summary short enough for one line of an 80-column terminal.
    static let subcommands: [(name: String, summary: String)] = [
        ("thumbnails", "a contact sheet, or one PNG per frame, of a video"),
        ("thumbnail", "one representative frame as a PNG (for file managers)"),
        ("cover", "write the cover art embedded in a media file"),
        ("cache", "show or clear the media cache of http(s) downloads"),
        ("mime-types", "the MIME types the installed plugins can play"),
        ("help", "this help; 'help keys', 'help commands', 'help <subcommand>'"),
    ]

    /// The exit codes (docs/CLI.md, "Exit codes"), one short line each.
    static let exitCodes: [(code: Int32, meaning: String)] = [
        (ExitStatus.success, "played to the end, or quit, and no item failed"),
        (ExitStatus.playbackError, "an item failed (the others still play) or nothing to play"),
        (ExitStatus.usage, "usage error (bad option or value, no arguments)"),
        (ExitStatus.noCoverArt, "gstplay cover: the media has no cover art"),
        (ExitStatus.controlSocket, "the control socket (--input-ipc-server) could not be made"),
        (ExitStatus.remote, "the web remote (--remote) or --sync-serve could not listen"),
        (ExitStatus.noRenderers, "--list-renderers found no renderer"),
        (ExitStatus.castFailed, "casting failed (playback went on here, no item failed)"),
        (ExitStatus.doorLibraryMissing, "a door's library (libsoup, GUPnP, Xlib) could not be opened"),
        (ExitStatus.hangup, "SIGHUP (the terminal went away)"),
        (ExitStatus.interrupted, "SIGINT (Ctrl-C)"),
        (ExitStatus.terminated, "SIGTERM"),
        (ExitStatus.quitSignal, "SIGQUIT"),
    ]

    /// The `--help` discussion: what gstplay does, the subcommands, where the keys and console
    /// commands are listed, and the exit codes — every line short, so ArgumentParser's wrapping
    /// at the terminal's width never breaks a table. `full` (for the man page, which
    /// swift-argument-parser's generate-manual plugin makes from `--experimental-dump-help`)
    /// adds the key and console-command tables themselves.
    static func discussion(full: Bool) -> String {
        var sections = [
            """
            Plays each URI or path in turn (directories expand to their files, sorted). \
            Without a display or audio device, fake sinks are used (a note says so).
            """,
            "SUBCOMMANDS (the first argument):\n" + ConsoleCommand.helpColumns(subcommands.map { ($0.name, $0.summary) }).joined(separator: "\n"),
        ]
        if full {
            sections.append("KEYS (when stdin and stdout are terminals, or typed into the video window):\n" + InputBindings.builtin.helpLines.joined(separator: "\n"))
            sections.append("""
                CONSOLE (when stdin is not a terminal, or with --json): one command per line, \
                case-insensitive; a bad line gets one 'gstplay: error: ...' line and playback goes on.
                """ + "\n" + ConsoleCommand.usageLines.joined(separator: "\n"))
        } else {
            sections.append("""
                KEYS AND CONSOLE COMMANDS: 'gstplay help keys' lists the keys ('?' while playing), \
                'gstplay help commands' the commands read from stdin ('help' while playing); \
                both are in 'man gstplay' and docs/CLI.md. Keys are rebound in \
                ~/.config/gstplay/input.conf (mpv's syntax; --list-keys prints the built-in one). \
                JSON mode (--json): docs/PROTOCOL.md.
                """)
        }
        sections.append("EXIT CODES:\n" + ConsoleCommand.helpColumns(exitCodes.map { (String($0.code), $0.meaning) }).joined(separator: "\n"))
        return sections.joined(separator: "\n\n")
    }
}
