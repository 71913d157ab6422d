/// Flags with an optional value (`--loop` / `--loop=one`, `--cache` / `--cache=offline`,
/// `--remote` / `--remote=PORT` / `--remote PORT`), which ArgumentParser cannot express:
/// ``rewrite(_:)`` turns each `--NAME=VALUE` into the hidden `--NAME-mode VALUE` option before
/// parsing. The bare flag stays a flag. Pure; any thread.
enum FlagValueRewrite {
    /// The flags with an optional value, and the hidden option each `--NAME=VALUE` becomes.
    static let hiddenOptions = ["loop": LoopArgument.hiddenName, "cache": NetworkOptions.hiddenModeName,
                                "remote": RemoteOptions.hiddenPortName, "sync-serve": SyncOptions.hiddenEndpointName]

    /// The flags whose value may also be the next argument when that is a number (all ASCII
    /// digits): `--remote 19401` is `--remote=19401` (a file named `19401` is `./19401`).
    static let numericValueFlags: Set<String> = ["remote"]

    /// The arguments with every `--NAME=VALUE` of those flags (and `--remote N`) before a `--`
    /// rewritten.
    static func rewrite(_ arguments: [String]) -> [String] {
        var result: [String] = []
        var positionalOnly = false
        var index = arguments.startIndex
        while index < arguments.endIndex {
            let argument = arguments[index]
            index += 1
            if argument == "--" { positionalOnly = true }
            if !positionalOnly, argument.hasPrefix("--"), let equals = argument.firstIndex(of: "="),
               let hidden = hiddenOptions[String(argument[argument.index(argument.startIndex, offsetBy: 2)..<equals])] {
                result += ["--\(hidden)", String(argument[argument.index(after: equals)...])]
            } else if !positionalOnly, argument.hasPrefix("--"), numericValueFlags.contains(String(argument.dropFirst(2))),
                      index < arguments.endIndex, isNumber(arguments[index]), let hidden = hiddenOptions[String(argument.dropFirst(2))] {
                result += ["--\(hidden)", arguments[index]]
                index += 1
            } else {
                result.append(argument)
            }
        }
        return result
    }

    /// One or more ASCII digits.
    private static func isNumber(_ text: String) -> Bool {
        !text.isEmpty && text.utf8.allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
    }
}
