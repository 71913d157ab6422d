import Backend

/// The A-B loop and frame-step console commands (`ab-loop`, `ab-loop-a`, `ab-loop-b`,
/// `ab-loop-count`, `frame-step`, `frame-back-step`), their keys (`l`, `.`, `,`) and the
/// `ab-loop` event and reply. Runs on the ``PlayerControl`` actor like the other commands; the parsing is pure.
extension SteppingCommands {
    /// Runs an A-B loop change; the reply carries the loop now in effect.
    public static func execute(_ change: ABLoopChange, player: Player) async -> CommandOutcome {
        do {
            let loop: ABLoop
            switch change {
            case .cycle: loop = try await player.cycleABLoopAsync()
            case .a(let time): loop = try await player.updateABLoop { $0.a = time }
            case .b(let time): loop = try await player.updateABLoop { $0.b = time }
            case .both(let a, let b): loop = try await player.updateABLoop { $0.a = a; $0.b = b }
            case .count(let count): loop = try await player.updateABLoop { $0.count = count }
            }
            return CommandOutcome(data: .abLoop(WireABLoop(loop)), text: [describe(loop)])
        } catch {
            return .failure("ab-loop: \(error.message)")
        }
    }

    /// Runs a frame step; the reply carries the shown frame's timestamp.
    public static func step(forward: Bool, player: Player) async -> CommandOutcome {
        do {
            let shown = forward ? try await player.frameStepAsync() : try await player.frameBackStepAsync()
            return CommandOutcome(data: .seek(WireSeek(position: Seconds(shown))), text: ["Frame at \(shown.formatted(fractionDigits: 3))"])
        } catch {
            return .failure("\(forward ? "frame-step" : "frame-back-step"): \(error.message)")
        }
    }

    /// One line for the terminal: `A-B loop: 0:01.000 - 0:02.500 (inf)`, `A-B loop: A 0:01.000`, `A-B loop off`.
    public static func describe(_ loop: ABLoop) -> String {
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
