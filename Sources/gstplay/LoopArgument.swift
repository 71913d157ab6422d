import ArgumentParser
import Backend

/// `--loop` with an optional value (`--loop` alone = `all`, `--loop=none|one|all`), which
/// ArgumentParser cannot express: ``FlagValueRewrite`` turns `--loop=MODE` into the hidden
/// `--loop-mode MODE` before parsing. Pure; any thread.
enum LoopArgument {
    static let hiddenName = "loop-mode"


    /// The loop mode from the bare flag and/or a value; throws `ValidationError` (exit 2) for a bad value.
    static func mode(flag: Bool, value: String?) throws -> LoopMode {
        guard let value else { return flag ? .all : .none }
        guard let mode = LoopMode(rawValue: value.lowercased()) else {
            throw ValidationError("--loop must be none, one or all (got '\(value)')")
        }
        return mode
    }
}
