import Backend

/// The parsing of the `variant N|auto` console commands (the CLI runs them). Pure; any thread.
public enum AdaptiveCommands {
    /// `variant 2`, `variant auto`.
    public static func parseVariant(_ arguments: ConsoleCommand.Arguments) -> Result<ConsoleCommand, ConsoleError> {
        arguments.one("a variant number or 'auto'").flatMap { argument in
            if argument.lowercased() == "auto" { return .success(.variant(nil)) }
            guard let index = Int(argument), index >= 0 else {
                return .failure(ConsoleError("variant: expected a variant number (see 'variants') or 'auto', got '\(ConsoleCommand.printable(argument))'"))
            }
            return .success(.variant(index))
        }
    }
}

/// The parsing of the `cast N|name|auto|off` console commands (the CLI runs them). Pure; any thread.
public enum CastCommands {
    /// `cast 0`, `cast off`, `cast auto`, `cast Living room`, `cast uuid:…`.
    public static func parse(_ arguments: ConsoleCommand.Arguments) -> Result<ConsoleCommand, ConsoleError> {
        guard !arguments.rest.isEmpty else {
            return .failure(ConsoleError("cast: missing argument (expected a renderer number from 'renderers', a name, auto or off)"))
        }
        let text = arguments.rest
        if text.lowercased() == "off" { return .success(.cast(.off)) }
        if let index = Int(text) {
            guard index >= 0 else { return .failure(ConsoleError("cast: expected a renderer number (see 'renderers'), got '\(ConsoleCommand.printable(text))'")) }
            return .success(.cast(.index(index)))
        }
        return .success(.cast(.target(CastTarget(parsing: text))))
    }
}

/// The parsing of the `chapter N|next|prev` console commands (the CLI runs them). Pure; any thread.
public enum ChapterCommands {
    /// `chapter 2`, `chapter next`, `chapter prev` (also `previous`).
    public static func parse(_ arguments: ConsoleCommand.Arguments) -> Result<ConsoleCommand, ConsoleError> {
        arguments.one("a chapter number, 'next' or 'prev'").flatMap { argument in
            switch argument.lowercased() {
            case "next": return .success(.chapter(.next))
            case "prev", "previous": return .success(.chapter(.previous))
            default:
                guard let index = Int(argument), index >= 0 else {
                    return .failure(ConsoleError("chapter: expected a chapter number (see 'chapters'), 'next' or 'prev', got '\(ConsoleCommand.printable(argument))'"))
                }
                return .success(.chapter(.index(index)))
            }
        }
    }
}

/// The parsing of the `sub-visibility` and `osd` console commands (the CLI runs them). Pure; any thread.
public enum OverlayCommands {
    /// `sub-visibility yes|no|toggle` (nil: toggle; no word toggles too).
    public static func parseVisibility(_ arguments: ConsoleCommand.Arguments) -> Result<ConsoleCommand, ConsoleError> {
        switch arguments.words.map({ $0.lowercased() }) {
        case [], ["toggle"]: return .success(.subVisibility(nil))
        case ["yes"], ["on"]: return .success(.subVisibility(true))
        case ["no"], ["off"]: return .success(.subVisibility(false))
        default: return .failure(ConsoleError("sub-visibility: expected yes, no or toggle, got '\(ConsoleCommand.printable(arguments.rest))'"))
        }
    }

    /// `osd` (the progress bar) or `osd some text` (the text, no bar).
    public static func parseOSD(_ arguments: ConsoleCommand.Arguments) -> Result<ConsoleCommand, ConsoleError> {
        .success(.osd(arguments.rest.isEmpty ? nil : arguments.rest))
    }
}

/// The parsing of the `ab-loop`, `ab-loop-a`, `ab-loop-b` and `ab-loop-count` console commands (the CLI runs them). Pure; any thread.
public enum SteppingCommands {
    /// `ab-loop`, `ab-loop <A> <B>`, `ab-loop off`.
    public static func parseLoop(_ arguments: ConsoleCommand.Arguments) -> Result<ConsoleCommand, ConsoleError> {
        switch arguments.words.count {
        case 0: return .success(.abLoop(.cycle))
        case 1:
            guard ["off", "no", "clear"].contains(arguments.words[0].lowercased()) else {
                return .failure(ConsoleError("ab-loop: expected two times (A and B) or 'off', got '\(ConsoleCommand.printable(arguments.words[0]))'"))
            }
            return .success(.abLoop(.both(nil, nil)))
        case 2:
            return point(arguments.words[0], "ab-loop").flatMap { a in
                point(arguments.words[1], "ab-loop").map { b in .abLoop(.both(a, b)) }
            }
        default:
            return .failure(ConsoleError("ab-loop: unexpected argument '\(ConsoleCommand.printable(arguments.words[2]))'"))
        }
    }

    /// `ab-loop-a <time|no>` / `ab-loop-b <time|no>`.
    public static func parsePoint(_ arguments: ConsoleCommand.Arguments) -> Result<ConsoleCommand, ConsoleError> {
        arguments.one("a time or 'no'").flatMap { word in
            point(word, arguments.name).map { arguments.name == "ab-loop-a" ? .abLoop(.a($0)) : .abLoop(.b($0)) }
        }
    }

    /// `ab-loop-count <N|inf>`.
    public static func parseCount(_ arguments: ConsoleCommand.Arguments) -> Result<ConsoleCommand, ConsoleError> {
        arguments.one("a number of loops or 'inf'").flatMap { word in
            count(word).map { .abLoop(.count($0)) }.mapError { ConsoleError("ab-loop-count: \($0.message)") }
        }
    }

    /// A loop count: `inf` (nil) or a whole number ≥ 0.
    public static func count(_ word: String) -> Result<Int?, ConsoleError> {
        if word.lowercased() == "inf" { return .success(nil) }
        guard let value = Int(word), value >= 0 else {
            return .failure(ConsoleError("expected a whole number of loops (0 or more) or 'inf', got '\(ConsoleCommand.printable(word))'"))
        }
        return .success(value)
    }

    /// A loop point: an absolute time (`90`, `1:30`), or `no` for none.
    public static func point(_ word: String, _ name: String) -> Result<MediaTime?, ConsoleError> {
        if ["no", "off", "none"].contains(word.lowercased()) { return .success(nil) }
        switch SeekArgument.parse(word) {
        case .success(.absolute(let time)): return .success(time)
        case .success: return .failure(ConsoleError("\(name): a loop point is a time from the start such as 90 or 1:30 (or 'no'), got '\(ConsoleCommand.printable(word))'"))
        case .failure(let error): return .failure(ConsoleError("\(name): \(error.message)"))
        }
    }
}

/// The parsing of the `track`, `sub-offset` and `audio-offset` console commands (the CLI runs them). Pure; any thread.
public enum TrackCommands {
    /// `track audio 1`, `track subtitle none`, `track video 0`.
    public static func parseTrack(_ arguments: ConsoleCommand.Arguments) -> Result<ConsoleCommand, ConsoleError> {
        guard arguments.words.count == 2 else {
            return .failure(ConsoleError("track: expected 'track audio|subtitle|video <N|none>'"))
        }
        let kindWord = arguments.words[0].lowercased()
        guard let kind = kindNames[kindWord] else {
            return .failure(ConsoleError("track: unknown track type '\(ConsoleCommand.printable(arguments.words[0]))' (expected audio, subtitle or video)"))
        }
        let value = arguments.words[1]
        if value.lowercased() == "none" { return .success(.track(kind, nil)) }
        guard let index = Int(value), index >= 0 else {
            return .failure(ConsoleError("track: expected a track number or 'none', got '\(ConsoleCommand.printable(value))'"))
        }
        return .success(.track(kind, index))
    }

    private static let kindNames: [String: TrackKind] = ["audio": .audio, "subtitle": .subtitle, "sub": .subtitle, "video": .video]

    /// The largest offset either way, in milliseconds (one hour).
    public static let offsetLimit: Int64 = 3_600_000

    /// `sub-offset 500`, `audio-offset -200` (milliseconds). The range is checked without
    /// `abs`, which traps on `Int64.min`.
    public static func parseOffset(_ arguments: ConsoleCommand.Arguments, _ make: @escaping (Int64) -> ConsoleCommand) -> Result<ConsoleCommand, ConsoleError> {
        arguments.one("milliseconds such as 500 or -250").flatMap { argument in
            guard let value = Int64(argument), (-offsetLimit...offsetLimit).contains(value) else {
                return .failure(ConsoleError("\(arguments.name): expected milliseconds within ±3600000, got '\(ConsoleCommand.printable(argument))'"))
            }
            return .success(make(value))
        }
    }
}

/// The parsing of the `snapshot [--osd] [path]` console commands (the CLI runs them). Pure; any thread.
public enum SnapshotFile {
    /// `snapshot [--osd] [path]`: `--osd` first asks for the OSD in the picture; the rest is the path.
    public static func parse(_ rest: String) -> Result<ConsoleCommand, ConsoleError> {
        var path = Substring(rest)
        let osd = path == "--osd" || path.hasPrefix("--osd ")
        if osd { path = path.dropFirst(5).drop(while: { $0 == " " }) }
        // `--osd` is the one option; any other word starting with `--` is a mistyped option, not a
        // file name (write `./--name` for such a file).
        if path.hasPrefix("--") {
            let option = path.prefix { $0 != " " }
            return .failure(ConsoleError("snapshot: unknown option '\(option)' (expected: snapshot [--osd] [path])"))
        }
        return .success(.snapshot(path.isEmpty ? nil : String(path), osd: osd))
    }
}

/// `cycle`, `add` and `keys`: the console commands the key bindings use for what has no other
/// command. Parsing is pure; running is on the CLI actor like the other commands.
public enum KeyCommands {
    /// `cycle <what>`.
    public static func parseCycle(_ arguments: ConsoleCommand.Arguments) -> Result<ConsoleCommand, ConsoleError> {
        arguments.one("one of \(CycleTarget.allCases.map(\.rawValue).joined(separator: ", "))").flatMap { word in
            guard let target = CycleTarget.named(word) else {
                return .failure(ConsoleError("cycle: cannot cycle '\(ConsoleCommand.printable(word))' (expected one of \(CycleTarget.allCases.map(\.rawValue).joined(separator: ", ")))"))
            }
            return .success(.cycle(target))
        }
    }

    /// `add volume|speed <n>`.
    public static func parseAdd(_ arguments: ConsoleCommand.Arguments) -> Result<ConsoleCommand, ConsoleError> {
        guard arguments.words.count == 2 else {
            return .failure(ConsoleError("add: expected a property and an amount, e.g. 'add volume 2' or 'add speed -0.1'"))
        }
        guard let target = AddTarget(rawValue: arguments.words[0].lowercased()) else {
            return .failure(ConsoleError("add: cannot add to '\(ConsoleCommand.printable(arguments.words[0]))' (expected volume or speed)"))
        }
        guard let amount = StrictNumber.signed(arguments.words[1]) else {
            return .failure(ConsoleError("add: invalid number '\(ConsoleCommand.printable(arguments.words[1]))'"))
        }
        return .success(.add(target, amount))
    }
}
