import Backend
import BackendControl
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Console lines, keys and commands: the input half of the CLI actor. Each line's reply is
/// written before the next input is taken.
///
/// **Thread:** the ``PlaybackController`` actor.
extension PlaybackController {
    /// What a command did: an error (nil for success), data for JSON replies, lines for text mode.
    /// A plain value.
    struct Outcome: Equatable, Sendable {
        var error: String?
        var data: ReplyData = .none
        var text: [String] = []

        static let success = Outcome()
        static func failure(_ message: String) -> Outcome { Outcome(error: message) }
    }

    /// One line from the console (text or, in `--json` mode, JSON or text).
    func handle(line: String) async {
        guard !line.trimmingWhitespaceAndNewlines().isEmpty else { return }
        if settings.json {
            await dispatch(line, from: .console)
        } else {
            switch ConsoleCommand.parse(line) {
            case .failure(let error):
                output.err("gstplay: error: \(error.message)")
            case .success(let command):
                let outcome = await execute(command)
                if let error = outcome.error { output.err("gstplay: error: \(error)") }
                if !outcome.text.isEmpty { output.out(lines: outcome.text) }
            }
        }
    }

    /// A console (or control client's) line that exceeded the length limit.
    func lineTooLong(limit: Int, from client: ControlClientID = .console) {
        let message = "line too long (more than \(limit) bytes); ignored"
        if settings.json || client != .console {
            reply(Reply(id: .null, error: message).line, to: client)
        } else {
            output.err("gstplay: error: \(message)")
        }
    }

    /// A key pressed on the TTY, or typed into the video window (``WindowKeys``): its binding's
    /// command (``InputBindings``) runs as a console line does. Seeks from keys do not wait for
    /// their landing: held keys are coalesced by the player's seek throttle.
    func handle(key: Key) async {
        guard let command = settings.bindings.binding(for: key)?.parsed else { return }
        let outcome: Outcome
        if case .seek(let target) = command {
            outcome = await seek(target, awaitingLanding: false)
        } else {
            outcome = await execute(command)
        }
        if let error = outcome.error { output.err("gstplay: error: \(error)") }
        if !outcome.text.isEmpty { output.out(lines: outcome.text) }
    }

    // MARK: Commands

    /// Runs one command; `seek` and the commands that read fresh values from the loop thread
    /// (`status`, `stats`, `snapshot`, the queue's) await their results.
    func execute(_ command: ConsoleCommand) async -> Outcome {
        switch command {
        case .play: player.play()
        case .pause: player.pause()
        case .toggle: player.togglePause()
        case .stop: player.stop()
        case .seek(let target):
            return await seek(target, awaitingLanding: true)
        case .rate(let rate):
            do {
                try player.setRate(rate)
            } catch {
                return .failure(error.message)
            }
        case .volume(let percent):
            player.setVolume(VolumeScale.linear(fromCubic: percent / 100))
        case .mute(let wanted?):
            player.setMuted(wanted)
            return Outcome(data: .muted(wanted))
        case .mute(nil):
            return Outcome(data: .muted(player.toggleMuted()))
        case .status:
            let queue = await player.currentQueue()
            let report = StatusReport(snapshot: player.snapshot, index: queue.currentIndex, count: queue.items.count,
                                      location: queue.currentIndex.map { name(of: queue.items[$0].uri) })
            return Outcome(data: .status(report.wire), text: [report.text])
        case .stats:
            let report = StatisticsReport(statistics: await player.refreshStatistics())
            return Outcome(data: .statistics(report.wire), text: [report.text])
        case .next, .prev, .load:
            return await navigate(command)
        case .queue(let queueCommand):
            return await execute(queueCommand)
        case .help:
            return Outcome(data: .help(commands: ConsoleCommand.usage.map(\.syntax), keys: HelpText.keyNames(settings.bindings)),
                           text: ["Commands:"] + HelpText.commands)
        case .quit:
            finish(policy.exitCode)
        case .variants, .variant:
            return AdaptiveCommands.execute(command, player: player)
        case .snapshot(let path, let osd):
            return await snapshot(to: path, osd: osd)
        case .cover(let path):
            return cover(to: path)
        case .tracks, .track, .subFile, .subOffset, .audioOffset:
            return TrackCommands.execute(command, player: player, session: trackSession)
        case .subVisibility, .osd:
            return OverlayCommands.execute(command, player: player)
        case .chapters, .chapter:
            return await ChapterCommands.execute(command, player: player)
        case .renderers, .cast:
            return CastCommands.execute(command, player: player)
        case .abLoop(let change):
            return await SteppingCommands.execute(change, player: player)
        case .frameStep(let forward):
            return await SteppingCommands.step(forward: forward, player: player)
        case .cycle(let target):
            return await cycle(target)
        case .add(let target, let amount):
            return await add(target, amount)
        case .keys:
            return Outcome(text: ["Keys:"] + HelpText.keys(settings.bindings))
        }
        return .success
    }

    /// `seek`: refused when nothing plays or is on its way (the player's state, and the queue's
    /// current item whose load a feature defers), for a live stream, and for a fraction while the
    /// duration is unknown. With `awaitingLanding` (console and JSON lines) the reply waits for the
    /// Backend's ``Player/seekAsync(to:mode:)`` and carries the position the seek landed at; keys
    /// only ask (``Player/seek(to:mode:)``).
    func seek(_ target: SeekArgument, awaitingLanding: Bool) async -> Outcome {
        let snapshot = player.snapshot
        guard snapshot.queueItemPending || ![.idle, .error, .stopping].contains(snapshot.state) else {
            return .failure("seek: nothing is playing")
        }
        if snapshot.isLive { return .failure("seek: a live stream cannot seek") }
        if case .fraction = target, snapshot.duration == nil { return .failure("seek: the duration is not known (yet)") }
        guard awaitingLanding else {
            switch target {
            case .absolute(let time): player.seek(to: time)
            case .relative(let offset): player.seek(by: offset)
            case .fraction(let fraction): player.seek(toFraction: fraction)
            }
            return .success
        }
        do {
            let landed: MediaTime
            switch target {
            case .absolute(let time): landed = try await player.seekAsync(to: time)
            case .relative(let offset): landed = try await player.seekAsync(by: offset)
            case .fraction(let fraction): landed = try await player.seekAsync(toFraction: fraction)
            }
            return Outcome(data: .seek(WireSeek(position: Seconds(landed))))
        } catch {
            return .failure("seek: \(error.message)")
        }
    }
}
