import Backend

/// What a command did: an error (nil for success), data for JSON replies, lines for text mode.
/// A plain value; any thread.
public struct CommandOutcome: Equatable, Sendable {
    /// The error message (no `gstplay:` prefix); nil: the command succeeded.
    public var error: String?
    /// The JSON reply's `data`.
    public var data: ReplyData
    /// The lines a text console prints.
    public var text: [String]

    /// An outcome with these parts.
    public init(error: String? = nil, data: ReplyData = .none, text: [String] = []) {
        self.error = error
        self.data = data
        self.text = text
    }

    /// Success, nothing to show.
    public static let success = CommandOutcome()
    /// A failure with `message`.
    public static func failure(_ message: String) -> CommandOutcome { CommandOutcome(error: message) }
}

/// Running console commands against the player: each through the same player call, whichever
/// door it came through.
///
/// **Thread:** the ``PlayerControl`` actor.
extension PlayerControl {
    // MARK: Commands

    /// Runs one command; `seek` and the commands that read fresh values from the loop thread
    /// (`status`, `stats`, `snapshot`, the queue's) await their results.
    public func execute(_ command: ConsoleCommand) async -> CommandOutcome {
        if command.movesTransport, let refusal = player.snapshot.transportRefusal { return .failure(refusal) }
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
            return CommandOutcome(data: .muted(wanted))
        case .mute(nil):
            return CommandOutcome(data: .muted(player.toggleMuted()))
        case .status:
            let queue = await player.currentQueue()
            let report = StatusReport(snapshot: player.snapshot, index: queue.currentIndex, count: queue.items.count,
                                      location: queue.currentIndex.map { names.name(of: queue.items[$0].uri) })
            return CommandOutcome(data: .status(report.wire), text: [report.text])
        case .stats:
            let report = StatisticsReport(statistics: await player.refreshStatistics())
            return CommandOutcome(data: .statistics(report.wire), text: [report.text])
        case .next, .prev, .load:
            return await navigate(command)
        case .queue(let queueCommand):
            return await execute(queueCommand)
        case .help:
            let keys = configuration.bindings?.keyNames ?? []
            return CommandOutcome(data: .help(commands: ConsoleCommand.usage.map(\.syntax), keys: keys),
                                  text: ["Commands:"] + ConsoleCommand.usageLines)
        case .quit:
            await requestQuit(code: nil)
        case .variants, .variant:
            return AdaptiveCommands.execute(command, player: player)
        case .snapshot(let path, let osd):
            return await snapshot(to: path, osd: osd)
        case .cover(let path):
            return cover(to: path)
        case .track(let kind, let index) where tracks != nil && TrackCommands.tracksPending(player):
            tracks?.selectWhenKnown(kind, index)      // applied when the tracks are known
            return .success
        case .tracks, .track, .subFile, .subOffset, .audioOffset:
            return TrackCommands.execute(command, player: player)
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
            return CommandOutcome(text: ["Keys:"] + (configuration.bindings?.helpLines ?? []))
        }
        return .success
    }

    /// `seek`: refused when nothing plays or is on its way (the player's state, and the queue's
    /// current item whose load a feature defers), for a live stream, and for a fraction while the
    /// duration is unknown. With `awaitingLanding` (console and JSON lines) the reply waits for the
    /// Backend's `Player/seekAsync(to:mode:)` and carries the position the seek landed at; keys
    /// only ask (`Player/seek(to:mode:)`).
    public func seek(_ target: SeekArgument, awaitingLanding: Bool) async -> CommandOutcome {
        if let refusal = player.snapshot.transportRefusal { return .failure(refusal) }
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
            return CommandOutcome(data: .seek(WireSeek(position: Seconds(landed))))
        } catch {
            return .failure("seek: \(error.message)")
        }
    }
}

extension PlayerSnapshot {
    /// The play queue's current item is not the media loaded: its load was asked for and has not
    /// begun (a feature defers it, e.g. while the media cache revalidates a copy). False without
    /// a current item.
    public var queueItemPending: Bool {
        guard let queue = features[QueueSnapshot.self], let index = queue.currentIndex else { return false }
        return queue.items[index].uri != uri
    }
}

extension ConsoleCommand {
    /// Whether the command changes what plays or when (play, pause, stop, seeks, rate, another
    /// item, the queue, chapters, A-B loops, frame steps): what a sync follower refuses, since
    /// its leader decides (`PlayerSnapshot.transportRefusal`). Volume, mute, tracks and the
    /// read-only commands are the follower's own.
    var movesTransport: Bool {
        switch self {
        case .play, .pause, .toggle, .stop, .seek, .rate, .next, .prev, .load, .chapter, .abLoop, .frameStep: true
        case .queue(.list), .queue(.save): false
        case .queue: true
        default: false
        }
    }
}
