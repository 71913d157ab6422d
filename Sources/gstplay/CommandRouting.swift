import ArgumentParser
import BackendControl
import BackendCore
import Glibc

/// The one way a command line is parsed, run and ended, for the player and for the commands
/// named by the first argument (`gstplay thumbnails …`, `gstplay cache …`, `gstplay help …`).
///
/// The first argument picks the command here, not through `subcommands:` on ``GstplayCommand``:
/// ArgumentParser parses a root command's positional arguments (the player's locations) before
/// it looks for a subcommand name, so `gstplay cache list` would be two locations, and a
/// dispatching root would change `gstplay --help` and take `help` as a command name.
///
/// Parsing, help, version and usage errors run synchronously on the main thread and exit from
/// there; only a command that plays (an `AsyncParsableCommand`) starts a task, while the main
/// thread waits for the exit. Swift's async `main` would end the main thread with
/// `dispatch_main()`'s `pthread_exit`, whose forced unwind reads the executable's unwind tables
/// (half a MiB mapped at every start) and starts the concurrency runtime even for `--version`.
///
/// **Thread:** the main thread; never returns.
enum CommandRouting {
    /// The commands named by the first argument (each `CommandConfiguration.commandName`).
    static var subcommands: [any ParsableCommand.Type] { [ThumbnailsCommand.self, CacheCommand.self, ThumbnailCommand.self, CoverCommand.self, MIMETypesCommand.self] }

    /// Runs the command line `arguments` (without the program name) and exits.
    static func main(_ arguments: [String]) -> Never {
        if arguments.first == "help" { help(Array(arguments.dropFirst())) }
        if let first = arguments.first, let command = subcommand(named: first) {
            run(command, Array(arguments.dropFirst()))
        }
        let configured: [String]
        do {
            configured = try ConfigArguments.prepend(to: arguments)
        } catch {
            Output.writeLine(STDERR_FILENO, "gstplay: error: \(error.message)")
            Glibc.exit(ExitStatus.usage)
        }
        if playsMedia(configured) { GStreamerRuntime.initializeInBackground() }
        run(GstplayCommand.self, FlagValueRewrite.rewrite(configured))
    }

    /// Whether the player's command line will play something (a location, not only options, and
    /// no help or version): GStreamer's initialisation then starts at once, beside the parsing.
    private static func playsMedia(_ arguments: [String]) -> Bool {
        let answersAndExits: Set<String> = ["-h", "--help", "--help-hidden", "--version", "--experimental-dump-help"]
        return arguments.contains { !$0.hasPrefix("-") } && !arguments.contains { answersAndExits.contains($0) }
    }

    /// The subcommand called `name`, if any.
    private static func subcommand(named name: String) -> (any ParsableCommand.Type)? {
        subcommands.first { $0.configuration.commandName == name }
    }

    /// `gstplay help [topic]`: no topic, the player's `--help`; `keys` or `commands`, that table
    /// (as `?` and the console's `help` print it); a subcommand's name, its `--help`. Anything
    /// else is a usage error naming the topics.
    private static func help(_ topics: [String]) -> Never {
        if topics.count == 1, let command = subcommand(named: topics[0]) { run(command, ["--help"]) }
        switch topics {
        case []: run(GstplayCommand.self, ["--help"])
        case ["keys"]:
            let lines = ["Keys (when stdin and stdout are terminals, or typed into the video window):"] + InputBindings.builtin.helpLines
                + ["", "These are the built-in bindings ('gstplay --list-keys' prints them as an input.conf); lines in",
                   "$XDG_CONFIG_HOME/gstplay/input.conf or --input-conf FILE change them ('?' shows the keys in force)."]
            Output.writeLines(STDOUT_FILENO, lines.joined(separator: "\n"))
            Glibc.exit(ExitStatus.success)
        case ["commands"]:
            let heading = "Console commands (one per line on stdin when it is not a terminal, or with --json; "
                + "also on --input-ipc-server and the web remote):"
            Output.writeLines(STDOUT_FILENO, ([heading] + ConsoleCommand.usageLines).joined(separator: "\n"))
            Glibc.exit(ExitStatus.success)
        default:
            let known = ["keys", "commands"] + subcommands.map { $0.configuration.commandName ?? "" }
            Output.writeLine(STDERR_FILENO, "gstplay: error: help: no help on '\(topics.joined(separator: " "))' (try one of: \(known.joined(separator: ", ")))")
            Glibc.exit(ExitStatus.usage)
        }
    }

    /// Parses `arguments` as `command` (`parseAsRoot`), runs it (an `AsyncParsableCommand` in a
    /// task, the main thread parked until the task exits) and exits: 0 when `run` returns, the
    /// code of an `ExitCode` it throws; help, version and completion scripts on stdout with 0;
    /// every other error as ArgumentParser's message and usage on stderr (each line escaped) with
    /// ``ExitStatus/usage`` (2, not ArgumentParser's 64).
    private static func run<Command: ParsableCommand>(_ command: Command.Type, _ arguments: [String]) -> Never {
        var parsed: any ParsableCommand
        do {
            parsed = try command.parseAsRoot(arguments)
        } catch {
            exit(command, after: error)
        }
        guard let asynchronous = parsed as? any AsyncParsableCommand else {
            do {
                try parsed.run()
                Glibc.exit(ExitStatus.success)
            } catch {
                exit(command, after: error)
            }
        }
        // Default priority, not the main thread's user-initiated: libdispatch runs user-initiated
        // work at nice -2 where it may (as root), and the player's loop thread and every GStreamer
        // streaming thread, started from that work, would inherit it — ahead of `gst_init` (nice 0)
        // at start-up, and of the rest of the system while playing, unlike gst-play-1.0.
        Task(priority: .medium) {
            var running = asynchronous
            do {
                try await running.run()
                Glibc.exit(ExitStatus.success)
            } catch {
                exit(command, after: error)
            }
        }
        while true { Glibc.pause() }   // signals interrupt it; the task's `exit` ends the process
    }

    /// Exits after `error` from parsing or running `command`: an `ExitCode`'s own code; help,
    /// version and completion scripts printed with 0; anything else as a usage error.
    private static func exit<Command: ParsableCommand>(_ command: Command.Type, after error: any Error) -> Never {
        if let code = error as? ExitCode { Glibc.exit(code.rawValue) }
        if command.exitCode(for: error) == .success { command.exit(withError: error) }
        Output.writeLines(STDERR_FILENO, prefixed(command.fullMessage(for: error)))
        Glibc.exit(ExitStatus.usage)
    }

    /// ArgumentParser's error message with gstplay's prefix: its `Error: ` label becomes
    /// `gstplay: error: `, as on every other error line; the usage lines after it stay.
    static func prefixed(_ message: String) -> String {
        let label = "Error: "
        return "gstplay: error: " + (message.hasPrefix(label) ? String(message.dropFirst(label.count)) : message)
    }
}
