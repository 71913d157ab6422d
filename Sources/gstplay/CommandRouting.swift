import ArgumentParser
import Glibc

/// The one way a command line is parsed, run and ended, for the player and for the commands
/// named by the first argument (`gstplay thumbnails …`, `gstplay cache …`).
///
/// The first argument picks the command here, not through `subcommands:` on ``GstplayCommand``:
/// ArgumentParser parses a root command's positional arguments (the player's locations) before
/// it looks for a subcommand name, so `gstplay cache list` would be two locations, and a
/// dispatching root would change `gstplay --help` and take `help` as a command name.
///
/// **Thread:** the async `main` (Swift's cooperative pool); never returns.
enum CommandRouting {
    /// The commands named by the first argument (each `CommandConfiguration.commandName`).
    static var subcommands: [any ParsableCommand.Type] { [ThumbnailsCommand.self, CacheCommand.self, ThumbnailCommand.self, CoverCommand.self, MIMETypesCommand.self] }

    /// Runs the command line `arguments` (without the program name) and exits.
    static func main(_ arguments: [String]) async -> Never {
        if let first = arguments.first, let command = subcommands.first(where: { $0.configuration.commandName == first }) {
            await run(command, Array(arguments.dropFirst()))
        }
        await run(GstplayCommand.self, FlagValueRewrite.rewrite(arguments))
    }

    /// Parses `arguments` as `command` (`parseAsRoot`), runs it (an `AsyncParsableCommand`
    /// awaited) and exits: 0 when `run` returns, the code of an `ExitCode` it throws; help,
    /// version and completion scripts on stdout with 0; every other error as ArgumentParser's
    /// message and usage on stderr (each line escaped) with ``ExitStatus/usage`` (2, not
    /// ArgumentParser's 64).
    private static func run<Command: ParsableCommand>(_ command: Command.Type, _ arguments: [String]) async -> Never {
        do {
            var parsed = try command.parseAsRoot(arguments)
            if var asynchronous = parsed as? any AsyncParsableCommand {
                try await asynchronous.run()
            } else {
                try parsed.run()
            }
            Glibc.exit(ExitStatus.success)
        } catch let code as ExitCode {
            Glibc.exit(code.rawValue)
        } catch {
            if command.exitCode(for: error) == .success { command.exit(withError: error) }
            Output.writeLines(STDERR_FILENO, command.fullMessage(for: error))
            Glibc.exit(ExitStatus.usage)
        }
    }
}
