import Backend
import BackendControl

/// What an A-B loop command changes. A plain value; any thread.
enum ABLoopChange: Equatable, Sendable {
    /// mpv's `ab-loop`: set A at the playhead, then B, then clear.
    case cycle
    /// Point A (`ab-loop-a`), nil: unset (mpv's `no`).
    case a(MediaTime?)
    /// Point B (`ab-loop-b`), nil: unset.
    case b(MediaTime?)
    /// Both points (`ab-loop A B`, `ab-loop off`).
    case both(MediaTime?, MediaTime?)
    /// The loops to make (`ab-loop-count`), nil: `inf`.
    case count(Int?)
}

/// The A-B loop and frame-step console commands (`ab-loop`, `ab-loop-a`, `ab-loop-b`,
/// `ab-loop-count`, `frame-step`, `frame-back-step`), their keys (`l`, `.`, `,`) and the
/// `ab-loop` event and reply. Runs on the CLI actor like the other commands; the parsing is pure.
enum SteppingCommands {
    /// `ab-loop`, `ab-loop <A> <B>`, `ab-loop off`.
    static func parseLoop(_ arguments: ConsoleCommand.Arguments) -> Result<ConsoleCommand, ConsoleError> {
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
    static func parsePoint(_ arguments: ConsoleCommand.Arguments) -> Result<ConsoleCommand, ConsoleError> {
        arguments.one("a time or 'no'").flatMap { word in
            point(word, arguments.name).map { arguments.name == "ab-loop-a" ? .abLoop(.a($0)) : .abLoop(.b($0)) }
        }
    }

    /// `ab-loop-count <N|inf>`.
    static func parseCount(_ arguments: ConsoleCommand.Arguments) -> Result<ConsoleCommand, ConsoleError> {
        arguments.one("a number of loops or 'inf'").flatMap { word in
            count(word).map { .abLoop(.count($0)) }.mapError { ConsoleError("ab-loop-count: \($0.message)") }
        }
    }

    /// A loop count: `inf` (nil) or a whole number ≥ 0.
    static func count(_ word: String) -> Result<Int?, ConsoleError> {
        if word.lowercased() == "inf" { return .success(nil) }
        guard let value = Int(word), value >= 0 else {
            return .failure(ConsoleError("expected a whole number of loops (0 or more) or 'inf', got '\(ConsoleCommand.printable(word))'"))
        }
        return .success(value)
    }

    /// A loop point: an absolute time (`90`, `1:30`), or `no` for none.
    static func point(_ word: String, _ name: String) -> Result<MediaTime?, ConsoleError> {
        if ["no", "off", "none"].contains(word.lowercased()) { return .success(nil) }
        switch SeekArgument.parse(word) {
        case .success(.absolute(let time)): return .success(time)
        case .success: return .failure(ConsoleError("\(name): a loop point is a time from the start such as 90 or 1:30 (or 'no'), got '\(ConsoleCommand.printable(word))'"))
        case .failure(let error): return .failure(ConsoleError("\(name): \(error.message)"))
        }
    }

    /// Runs an A-B loop change; the reply carries the loop now in effect.
    static func execute(_ change: ABLoopChange, player: Player) async -> PlaybackController.Outcome {
        do {
            let loop: ABLoop
            switch change {
            case .cycle: loop = try await player.cycleABLoopAsync()
            case .a(let time): loop = try await player.updateABLoop { $0.a = time }
            case .b(let time): loop = try await player.updateABLoop { $0.b = time }
            case .both(let a, let b): loop = try await player.updateABLoop { $0.a = a; $0.b = b }
            case .count(let count): loop = try await player.updateABLoop { $0.count = count }
            }
            return PlaybackController.Outcome(data: .abLoop(WireABLoop(loop)), text: [describe(loop)])
        } catch {
            return .failure("ab-loop: \(error.message)")
        }
    }

    /// Runs a frame step; the reply carries the shown frame's timestamp.
    static func step(forward: Bool, player: Player) async -> PlaybackController.Outcome {
        do {
            let shown = forward ? try await player.frameStepAsync() : try await player.frameBackStepAsync()
            return PlaybackController.Outcome(data: .seek(WireSeek(position: Seconds(shown))), text: ["Frame at \(shown.formatted(fractionDigits: 3))"])
        } catch {
            return .failure("\(forward ? "frame-step" : "frame-back-step"): \(error.message)")
        }
    }

    /// One line for the terminal: `A-B loop: 0:01.000 - 0:02.500 (inf)`, `A-B loop: A 0:01.000`, `A-B loop off`.
    static func describe(_ loop: ABLoop) -> String {
        let count = loop.count.map(String.init) ?? "inf"
        switch (loop.a, loop.b) {
        case (nil, nil): return "A-B loop off" + (loop.count == nil ? "" : " (count \(count))")
        case (let a?, nil): return "A-B loop: A \(a.formatted(fractionDigits: 3))"
        case (nil, let b?): return "A-B loop: B \(b.formatted(fractionDigits: 3))"
        case (let a?, let b?):
            return "A-B loop: \(a.formatted(fractionDigits: 3)) - \(b.formatted(fractionDigits: 3)) (\(loop.count == 0 ? "disabled: count 0" : count))"
        }
    }
}
