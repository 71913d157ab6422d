import Backend

/// What `cycle` steps, by mpv's property names where mpv has one (`pause`, `mute`,
/// `sub-visibility`, `fullscreen`, `audio`/`aid`, `sub`/`sid`, `video`/`vid`); `cast` is
/// gstplay's (the next renderer found, then off). A plain value; any thread.
enum CycleTarget: String, CaseIterable, Equatable, Sendable {
    case pause, mute, fullscreen, audio, sub, video, cast
    case subVisibility = "sub-visibility"

    /// mpv's track property names as aliases.
    static func named(_ word: String) -> CycleTarget? {
        switch word.lowercased() {
        case "aid": .audio
        case "sid": .sub
        case "vid": .video
        case let other: CycleTarget(rawValue: other)
        }
    }
}

/// What `add` changes: `volume` (percent, 0…100) or `speed` (the rate). A plain value; any thread.
enum AddTarget: String, CaseIterable, Equatable, Sendable {
    case volume, speed
}

/// `cycle`, `add` and `keys`: the console commands the key bindings use for what has no other
/// command. Parsing is pure; running is on the CLI actor like the other commands.
enum KeyCommands {
    /// `cycle <what>`.
    static func parseCycle(_ arguments: ConsoleCommand.Arguments) -> Result<ConsoleCommand, ConsoleError> {
        arguments.one("one of \(CycleTarget.allCases.map(\.rawValue).joined(separator: ", "))").flatMap { word in
            guard let target = CycleTarget.named(word) else {
                return .failure(ConsoleError("cycle: cannot cycle '\(ConsoleCommand.printable(word))' (expected one of \(CycleTarget.allCases.map(\.rawValue).joined(separator: ", ")))"))
            }
            return .success(.cycle(target))
        }
    }

    /// `add volume|speed <n>`.
    static func parseAdd(_ arguments: ConsoleCommand.Arguments) -> Result<ConsoleCommand, ConsoleError> {
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

extension PlaybackController {
    /// Runs `cycle`: each target through the same player call as its own command or key did.
    func cycle(_ target: CycleTarget) async -> Outcome {
        switch target {
        case .pause: return await execute(.toggle)
        case .mute: return await execute(.mute(nil))
        case .subVisibility: return await execute(.subVisibility(nil))
        case .fullscreen:
            player.toggleFullscreen()
            return .success
        case .audio: return TrackCommands.cycle(.audio, player: player)
        case .sub: return TrackCommands.cycle(.subtitle, player: player)
        case .video: return TrackCommands.cycle(.video, player: player)
        case .cast: return CastCommands.cycle(player: player)
        }
    }

    /// Runs `add`: from the player's value (a setter's value is in its snapshot at once, so quick
    /// repeats add up before the loop thread has applied them), volume clamped to 0…100 and rounded to a tenth of a percent; the rate to
    /// a tenth, skipping 0 (``RateStep``).
    func add(_ target: AddTarget, _ amount: Double) async -> Outcome {
        switch target {
        case .volume:
            let percent = VolumeScale.cubic(fromLinear: player.snapshot.volume) * 100
            return await execute(.volume(min(max(((percent + amount) * 10).rounded() / 10, 0), 100)))
        case .speed:
            return await execute(.rate(RateStep.stepped(from: player.snapshot.rate, by: amount)))
        }
    }
}
