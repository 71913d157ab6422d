import ArgumentParser
import Backend

/// `--loop` with an optional value (`--loop` alone = `all`, `--loop=none|one|all`), which
/// ArgumentParser cannot express: ``rewrite(_:)`` turns `--loop=MODE` into the hidden
/// `--loop-mode MODE` before parsing. Pure; any thread.
enum LoopArgument {
    static let hiddenName = "loop-mode"

    /// The arguments with every `--loop=MODE` before a `--` rewritten.
    static func rewrite(_ arguments: [String]) -> [String] {
        var result: [String] = []
        var positionalOnly = false
        for argument in arguments {
            if argument == "--" { positionalOnly = true }
            if !positionalOnly, argument.hasPrefix("--loop=") {
                result += ["--\(hiddenName)", String(argument.dropFirst("--loop=".count))]
            } else {
                result.append(argument)
            }
        }
        return result
    }

    /// The loop mode from the bare flag and/or a value; throws `ValidationError` (exit 2) for a bad value.
    static func mode(flag: Bool, value: String?) throws -> LoopMode {
        guard let value else { return flag ? .all : .none }
        guard let mode = LoopMode(rawValue: value.lowercased()) else {
            throw ValidationError("--loop must be none, one or all (got '\(value)')")
        }
        return mode
    }
}
