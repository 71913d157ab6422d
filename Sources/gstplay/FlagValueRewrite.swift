/// Flags with an optional value (`--loop` / `--loop=one`, `--cache` / `--cache=offline`), which
/// ArgumentParser cannot express: ``rewrite(_:)`` turns each `--NAME=VALUE` into the hidden
/// `--NAME-mode VALUE` option before parsing. The bare flag stays a flag. Pure; any thread.
enum FlagValueRewrite {
    /// The flags with an optional value, and the hidden option each `--NAME=VALUE` becomes.
    static let hiddenOptions = ["loop": LoopArgument.hiddenName, "cache": NetworkOptions.hiddenModeName,
                                "remote": RemoteOptions.hiddenPortName]

    /// The arguments with every `--NAME=VALUE` of those flags before a `--` rewritten.
    static func rewrite(_ arguments: [String]) -> [String] {
        var result: [String] = []
        var positionalOnly = false
        for argument in arguments {
            if argument == "--" { positionalOnly = true }
            if !positionalOnly, argument.hasPrefix("--"), let equals = argument.firstIndex(of: "="),
               let hidden = hiddenOptions[String(argument[argument.index(argument.startIndex, offsetBy: 2)..<equals])] {
                result += ["--\(hidden)", String(argument[argument.index(after: equals)...])]
            } else {
                result.append(argument)
            }
        }
        return result
    }
}
