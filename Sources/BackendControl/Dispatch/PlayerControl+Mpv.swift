import Backend
import CGStreamer
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The mpv IPC subset: each command runs through the same player calls as gstplay's own
/// (``PlayerControl/execute(_:)``), with mpv's reply shape (``WireMpv/Reply``).
///
/// **Thread:** the ``PlayerControl`` actor.
extension PlayerControl {
    /// The client API version `get_version` answers: mpv 0.35's (2.0), which is what the subset follows.
    static let mpvClientAPIVersion: Int64 = 0x2_0000

    /// Runs one parsed mpv request from `client` and replies to it; observers follow.
    func run(_ request: (id: RequestID, command: Result<MpvCommand, MpvFailure>), from client: ControlClientID) async {
        let result: Result<MpvValue?, MpvFailure>
        switch request.command {
        case .failure(let failure): result = .failure(failure)
        case .success(let command): result = await execute(command, from: client)
        }
        switch result {
        case .success(let data): reply(WireMpv.Reply(id: request.id, error: nil, data: data).line, to: client)
        case .failure(let failure): reply(WireMpv.Reply(id: request.id, error: failure.message, data: nil).line, to: client)
        }
        notifyObservers()   // also a new observer's initial property-change, after the reply as mpv sends it
    }

    /// One mpv command: its reply data (nil: no `data` key, `.null`: `"data": null`) or mpv's error.
    func execute(_ command: MpvCommand, from client: ControlClientID) async -> Result<MpvValue?, MpvFailure> {
        switch command {
        case .getProperty(let name, let asText):
            return MpvProperties.value(of: name, in: mpvView()).flatMap { value in
                guard asText else { return .success(value) }
                return .success(.string(value.text ?? ""))
            }
        case .setProperty(let name, let value):
            return await setProperty(name, value).map { nil }
        case .observe(let id, let name, let asText):
            mpv.sessions[client, default: MpvSession()].observers.append(.init(id: id, name: name, asText: asText, last: nil))
            return .success(nil)
        case .unobserve(let id):
            mpv.sessions[client, default: MpvSession()].observers.removeAll { $0.id == id }
            return .success(nil)
        case .clientName: return .success(.string(client.description))
        case .getVersion: return .success(.int(Self.mpvClientAPIVersion))
        case .getTimeMicroseconds: return .success(.int(Int64(g_get_monotonic_time())))
        case .requestLogMessages: return .success(nil)     // accepted; gstplay sends no log-message events
        case .setEvent(let name, let enabled):
            mpv.sessions[client, default: MpvSession()].setEvent(name, enabled: enabled)
            return .success(nil)
        case .loadFile(let location, let mode):
            return await loadFile(location, mode)
        case .cycle(let name):
            switch name {
            case "pause": return await setProperty("pause", .bool(!player.snapshot.pauseRequested)).map { .null }
            case "mute": return await setProperty("mute", .bool(!player.snapshot.muted)).map { .null }
            case "aid", "sid", "vid":
                let kind: TrackKind = name == "aid" ? .audio : name == "sid" ? .subtitle : .video
                return TrackCommands.cycle(kind, player: player).error == nil ? .success(.null) : .failure(.commandFailed)
            default: return .failure(MpvProperties.names.contains(name) ? .badFormat : .notFound)
            }
        case .add(let name, let amount):
            guard case .success(.double(let current)) = MpvProperties.value(of: name, in: mpvView()) else { return .failure(.badFormat) }
            return await setProperty(name, .double(current + amount)).map { .null }
        case .seek(let target, let mode):
            let argument: SeekArgument
            switch mode {
            case .relative: argument = .relative(MediaTime(seconds: target))
            case .absolute: argument = .absolute(MediaTime(seconds: max(target, 0)))
            case .absolutePercent: argument = .fraction(min(max(target, 0), 100) / 100)
            case .relativePercent:
                guard let duration = player.snapshot.duration else { return .failure(.commandFailed) }
                argument = .relative(MediaTime(seconds: Double(duration.milliseconds) / 1000 * target / 100))
            }
            return outcome(await seek(argument, awaitingLanding: true))
        case .playlistNext: return outcome(await execute(ConsoleCommand.next))
        case .playlistPrevious: return outcome(await execute(ConsoleCommand.prev))
        case .quit(let code):
            await requestQuit(code: code)
            return .success(.null)
        case .abLoop: return outcome(await execute(ConsoleCommand.abLoop(.cycle)))
        case .frameStep: return outcome(await execute(ConsoleCommand.frameStep(forward: true)))
        case .frameBackStep: return outcome(await execute(ConsoleCommand.frameStep(forward: false)))
        }
    }

    /// `set_property`: the writable properties; the others are refused as mpv does.
    private func setProperty(_ name: String, _ value: JSONValue) async -> Result<Void, MpvFailure> {
        switch name {
        case "pause":
            guard let paused = MpvArgument.flag(value) else { return .failure(.badFormat) }
            return outcome(await execute(paused ? ConsoleCommand.pause : .play)).map { _ in }
        case "mute":
            guard let muted = MpvArgument.flag(value) else { return .failure(.badFormat) }
            return outcome(await execute(ConsoleCommand.mute(muted))).map { _ in }
        case "volume":
            guard let volume = MpvArgument.number(value) else { return .failure(.badFormat) }
            return outcome(await execute(ConsoleCommand.volume(min(max(volume, 0), 100)))).map { _ in }
        case "speed":
            guard let rate = MpvArgument.number(value) else { return .failure(.badFormat) }
            return outcome(await execute(ConsoleCommand.rate(rate))).map { _ in }
        case "time-pos", "playback-time":
            guard let seconds = MpvArgument.number(value) else { return .failure(.badFormat) }
            return outcome(await seek(.absolute(MediaTime(seconds: max(seconds, 0))), awaitingLanding: true)).map { _ in }
        case "percent-pos":
            guard let percent = MpvArgument.number(value) else { return .failure(.badFormat) }
            return outcome(await seek(.fraction(min(max(percent, 0), 100) / 100), awaitingLanding: true)).map { _ in }
        case "playlist-pos":
            let index: Int
            switch MpvArgument.index(value, from: 0) {
            case .success(let number): index = number
            case .failure(let failure): return .failure(failure)
            }
            return outcome(await execute(ConsoleCommand.queue(.jump(index)))).map { _ in }
        case "aid", "sid", "vid":
            let kind: TrackKind = name == "aid" ? .audio : name == "sid" ? .subtitle : .video
            let index: Int?
            if MpvArgument.flag(value) == false {
                index = nil
            } else {
                switch MpvArgument.index(value, from: 1) {               // mpv's track ids count from 1
                case .success(let id): index = id - 1
                case .failure(let failure): return .failure(failure)
                }
            }
            return outcome(TrackCommands.execute(ConsoleCommand.track(kind, index), player: player)).map { _ in }
        case "chapter":
            let index: Int
            switch MpvArgument.index(value, from: 0) {
            case .success(let number): index = number
            case .failure(let failure): return .failure(failure)
            }
            do {
                try player.seek(toChapter: index)
                return .success(())
            } catch {
                return .failure(.commandFailed)
            }
        case "loop-file", "loop-playlist":
            let on = MpvArgument.flag(value) ?? (MpvArgument.number(value).map { $0 > 0 } ?? (value == .string("inf") ? true : nil))
            guard let on else { return .failure(.badFormat) }
            let mode: LoopMode = on ? (name == "loop-file" ? .one : .all) : .none
            return outcome(await execute(ConsoleCommand.queue(.loop(mode)))).map { _ in }
        case "ab-loop-a", "ab-loop-b":
            guard let point = Self.loopPoint(value) else { return .failure(.badFormat) }
            return outcome(await execute(ConsoleCommand.abLoop(name == "ab-loop-a" ? .a(point) : .b(point)))).map { _ in }
        case "ab-loop-count":
            let count: Int??
            switch value {
            case .string(let text): count = try? SteppingCommands.count(text).get()
            case .int(let number) where number >= 0: count = .some(Int(clamping: number))
            case .double(let number) where number >= 0 && number == number.rounded() && number < 1e9: count = .some(Int(number))
            default: count = nil
            }
            guard let count else { return .failure(.badFormat) }
            return outcome(await execute(ConsoleCommand.abLoop(.count(count)))).map { _ in }
        default:
            return .failure(MpvProperties.names.contains(name) ? .unavailable : .notFound)
        }
    }

    /// An A-B loop point as mpv takes it: seconds (a number or text such as `"1:30"`), or `"no"`
    /// (and `false`) for none; nil for anything else.
    private static func loopPoint(_ value: JSONValue) -> MediaTime?? {
        switch value {
        case .bool(false): return .some(nil)
        case .int(let number) where number >= 0: return .some(MediaTime(seconds: Double(number)))
        case .double(let number) where number.isFinite && number >= 0: return .some(MediaTime(seconds: number))
        case .string(let text): return try? SteppingCommands.point(text, "ab-loop").get()
        default: return nil
        }
    }

    /// loadfile: `replace` plays it now instead of the playlist, `append` adds it at the end,
    /// `append-play` also starts it when nothing plays.
    private func loadFile(_ location: String, _ mode: MpvCommand.LoadMode) async -> Result<MpvValue?, MpvFailure> {
        guard let uri = try? MediaLocation.uri(for: location) else { return .failure(.commandFailed) }
        names[uri] = location
        let idle = !mpvView().loaded
        let item = prepared(QueueItem(uri: uri))
        switch mode {
        case .replace:
            try? player.setQueue([item])
        case .append, .appendPlay:
            if mode == .appendPlay && idle {
                try? player.setQueue(player.queue.items + [item], startingAt: player.queue.items.count)
            } else {
                player.appendToQueue([item])
            }
        }
        await commandsRan()
        return .success(.null)
    }

    /// A gstplay outcome as mpv's result: `null` data on success, "error running command" otherwise.
    private func outcome(_ outcome: CommandOutcome) -> Result<MpvValue?, MpvFailure> {
        outcome.error == nil ? .success(.null) : .failure(.commandFailed)
    }
}
