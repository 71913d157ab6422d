import Backend
import Foundation

/// Console lines, keys and commands: the input half of ``PlaybackController``.
///
/// **Thread:** the controller's ``PlaybackController/queue`` (the console and key threads hop
/// onto it); replies are written before the next line is taken.
extension PlaybackController {
    /// What a command did: an error (nil for success), data for JSON replies, lines for text mode.
    /// A plain value, made on the controller queue.
    struct Outcome: Equatable, Sendable {
        var error: String?
        var data: JSONValue = .null
        var text: [String] = []

        static let success = Outcome()
        static func failure(_ message: String) -> Outcome { Outcome(error: message) }
    }

    /// One line from the console (text or, in `--json` mode, JSON or text).
    func handle(line: String) {
        onQueue()
        guard !state.withLock({ $0.finished }) else { return }
        guard !line.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else { return }
        if settings.json {
            let request = JSONProtocol.parseRequest(line)
            switch request.command {
            case .failure(let error):
                output.out(JSONProtocol.reply(id: request.id, error: error.message).serialized)
            case .success(let command):
                // The reply is written before a `quit` lets the process go: main drains this queue.
                let outcome = execute(command)
                output.out(JSONProtocol.reply(id: request.id, error: outcome.error, data: outcome.data).serialized)
            }
        } else {
            switch ConsoleCommand.parse(line) {
            case .failure(let error):
                output.err("error: \(error.message)")
            case .success(let command):
                let outcome = execute(command)
                if let error = outcome.error { output.err("error: \(error)") }
                if !outcome.text.isEmpty { output.out(lines: outcome.text) }
            }
        }
    }

    /// A console line that exceeded the length limit.
    func lineTooLong(limit: Int) {
        onQueue()
        let message = "line too long (more than \(limit) bytes); ignored"
        if settings.json {
            output.out(JSONProtocol.reply(id: .value(.null), error: message).serialized)
        } else {
            output.err("error: \(message)")
        }
    }

    /// A key pressed on the TTY.
    func handle(key: Key) {
        onQueue()
        guard !state.withLock({ $0.finished }), let action = KeyAction.action(for: key) else { return }
        let outcome: Outcome
        switch action {
        case .togglePause: outcome = execute(.toggle)
        case .seek(let seconds): outcome = execute(.seek(.relative(MediaTime(seconds: seconds))))
        case .volume(let step):
            let current = state.withLock { $0.linearVolume }
            let cubic = min(max(VolumeScale.cubic(fromLinear: VolumeScale.step(linear: current, by: step)), 0), 1)
            outcome = execute(.volume((cubic * 100 * 10).rounded() / 10))
        case .rate(let step):
            outcome = execute(.rate(KeyAction.steppedRate(from: state.withLock { $0.rate }, by: step)))
        case .toggleMute: outcome = execute(.mute(nil))
        case .next: outcome = execute(.next)
        case .previous: outcome = execute(.prev)
        case .help: outcome = Outcome(text: ["Keys:"] + HelpText.keys)
        case .quit: outcome = execute(.quit)
        }
        if let error = outcome.error { output.err("error: \(error)") }
        if !outcome.text.isEmpty { output.out(lines: outcome.text) }
    }

    /// Input ended: not an error; playback goes on to the end.
    func inputEnded() {
        onQueue()
    }

    // MARK: Commands

    /// Runs one command (on ``queue``).
    func execute(_ command: ConsoleCommand) -> Outcome {
        onQueue()
        guard let player = state.withLock({ $0.player }) else { return .failure("the player is not ready yet") }
        switch command {
        case .play: player.play()
        case .pause: player.pause()
        case .toggle: player.togglePause()
        case .stop: player.stop()
        case .seek(let target):
            let snapshot = player.snapshot
            let loading = state.withLock { !$0.pendingLoads.isEmpty }
            guard loading || ![.idle, .error, .stopping].contains(snapshot.state) else {
                return .failure("seek: nothing is playing")
            }
            if snapshot.isLive { return .failure("seek: a live stream cannot seek") }
            switch target {
            case .absolute(let time): player.seek(to: time)
            case .relative(let offset): player.seek(by: offset)
            case .fraction(let fraction):
                guard snapshot.duration != nil else { return .failure("seek: the duration is not known (yet)") }
                player.seek(toFraction: fraction)
            }
        case .rate(let rate):
            do {
                try player.setRate(rate)
                state.withLock { $0.rate = rate }
            } catch {
                return .failure(error.message)
            }
        case .volume(let percent):
            let linear = VolumeScale.linear(fromCubic: percent / 100)
            state.withLock { $0.linearVolume = linear }
            player.setVolume(linear)
        case .mute(let wanted):
            let muted = state.withLock { state -> Bool in
                state.muted = wanted ?? !state.muted
                return state.muted
            }
            player.setMuted(muted)
            return Outcome(data: .object(["muted": .bool(muted)]), text: [])
        case .status:
            let report = statusReport(player)
            return Outcome(data: report.json, text: [report.text])
        case .stats:
            let report = StatisticsReport(statistics: player.refreshStatistics())
            return Outcome(data: report.json, text: [report.text])
        case .next:
            let moved = state.withLock { $0.playlist.advance() }
            guard moved else { return .failure("next: already at the last item") }
            loadCurrent()
        case .prev:
            let moved = state.withLock { $0.playlist.goBack() }
            guard moved else { return .failure("prev: already at the first item") }
            loadCurrent()
        case .load(let location):
            do {
                _ = try MediaLocation.uri(for: location)
            } catch {
                return .failure("load: \(error.message)")
            }
            state.withLock { _ = $0.playlist.insertAfterCurrent(location) }
            loadCurrent()
        case .help:
            return Outcome(data: .object(["commands": .array(ConsoleCommand.usage.map { .string($0.syntax) }),
                                          "keys": .array(KeyAction.bindings.map { .string($0.keys) })]),
                           text: ["Commands:"] + HelpText.commands)
        case .quit:
            finish(exitCodeNow)
        }
        return .success
    }

    func statusReport(_ player: Player) -> StatusReport {
        let (item, count) = state.withLock { ($0.eventsItem, $0.playlist.count) }
        return StatusReport(snapshot: player.snapshot, index: item?.index, count: count, location: item?.location)
    }
}
