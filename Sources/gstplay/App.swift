import Backend
import BackendControl
import BackendCore
import HTTPServe
import FoundationEssentials
import Glibc

/// Wires the program together: the output, the player, the inbox and its producers (the
/// player-event bridge, the stdin reader thread, the signal watcher), then hands everything to
/// the CLI actor (``PlaybackController``) and returns the exit code it decides.
///
/// **Thread:** ``run()`` in the async `main` (Swift's cooperative pool); the work runs on the CLI
/// actor, the Backend's loop thread and the one stdin reader thread.
struct App {
    let options: RunOptions

    func run() async -> Int32 {
        let inbox = Inbox()
        let signals = SignalWatcher(inbox: inbox)
        signals.install()

        let output = Output()
        if options.keyList {
            output.out(lines: KeyName.list)
            return ExitStatus.success
        }
        if options.listKeys {
            output.out(lines: BuiltinInputConf.text.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init))
            return ExitStatus.success
        }
        let bindings: InputBindings
        switch InputConfLoading.load(explicit: options.inputConf, directory: options.inputConfDirectory) {
        case .failure(let failure):
            output.err("gstplay: error: \(failure.message)")
            return ExitStatus.usage
        case .success(let (loaded, warnings)):
            bindings = loaded
            for warning in warnings { output.err("gstplay: warning: \(warning)") }
        }
        if options.forget {
            guard ResumeStore.forgetGstplayState(output: output) else { return ExitStatus.playbackError }
            if options.locations.isEmpty { return ExitStatus.success }
        }
        let interactive = !options.json && TerminalSize.isTerminal(STDIN_FILENO) && TerminalSize.isTerminal(STDOUT_FILENO)
        if options.json { output.out(WireEvents.hello()) }
        if options.cast.listRenderers { return await RendererListing.run(options: options, output: output) }

        var expanded = QueueSetup.expandingPlaylists(options.locations) { output.err("gstplay: \($0)") }
        if options.autoloadFiles { expanded.entries = QueueSetup.autoloadingFolder(expanded.entries) }
        if expanded.entries.isEmpty && expanded.failed > 0 { return ExitStatus.playbackError }
        let follows: Bool
        if case .follower? = options.sync?.role { follows = true } else { follows = false }

        if options.tracks.listTracks { return await TrackListing.run(expanded.entries.map(\.location), options: options, output: output) }
        let control = ControlHub(inbox: inbox) { output.err($0) }
        let socket: ControlSocket?
        do {
            socket = try options.ipcSocket.map { path throws(ControlSocketError) in try ControlSocket(path: path, hub: control) }
        } catch {
            output.err("gstplay: error: --input-ipc-server: \(error)")
            return ExitStatus.controlSocket
        }
        defer { socket?.close() }
        let statusLine = interactive && !options.quiet
        var standard = options.standardFeatures()
        if let sync = options.sync {
            do {
                standard.sync = try SyncFeature(settings: sync)
            } catch {
                output.err("gstplay: error: \(error.description)")
                return ExitStatus.remote       // a server of ours could not listen, as --remote
            }
        }
        standard.mpris = MPRISSetup.configuration(for: options) { output.err($0) }
        if let path = options.renderLog {
            do { standard.renderLog = try RenderLog(path: path) } catch {
                output.err("gstplay: error: --render-log: \(error)")
                return ExitStatus.usage
            }
        }
        let player = Player(configuration: options.playerConfiguration(showsStatistics: options.json || statusLine),
                            standard: standard)
        inbox.forward(player.records)
        if let rate = options.rate { try? player.setRate(rate) }          // validated by GstplayCommand
        if let percent = options.volumePercent { player.setVolume(VolumeScale.linear(fromCubic: percent / 100)) }
        if options.mute { player.setMuted(true) }
        if options.fullscreen { player.setFullscreen(true) }
        if let chapter = options.startChapter { player.setStartChapter(chapter) }
        if let target = options.cast.target { player.cast(to: target) }      // casts the first item once found
        let remote: WebRemote?
        do {
            remote = try options.remote.map { settings throws(HTTPServeError) in try WebRemote(settings: settings, hub: control, player: player) }
        } catch {
            output.err("gstplay: error: --remote: \(error)")
            player.shutdown()
            return ExitStatus.remote
        }
        defer { remote?.close() }
        if let remote, let settings = options.remote {
            if settings.exposed { output.err("gstplay: warning: the web remote listens on \(settings.bind): the network can reach it (the token still guards it)") }
            output.err("gstplay: web remote: \(remote.url)")
        }

        let controller = PlaybackController(
            player: player,
            setup: QueueSetup.expanding(expanded.entries, arguments: expanded.entries.map(\.location)),
            settings: .init(start: options.start, keepOpen: options.keepOpen, json: options.json, screenshot: options.screenshot,
                            resume: options.resume ? ResumeOptions(store: ResumeStore.gstplay(), saving: options.watchLaterOptions,
                                                                   restoring: options.resumeRestores) : nil,
                            loop: options.loop, shuffle: options.shuffle, gapless: options.gapless, tracks: options.tracks,
                            fileWriteRule: FileWriteRule(clientDirectory: options.clientWriteDirectory), bindings: bindings,
                            follows: follows),
            reporting: options.json ? .json : .text(statusLine: statusLine),
            quiet: options.quiet, showsVideoSize: options.videoSink != .disabled, output: output,
            control: socket == nil && remote == nil ? nil : control)

        let resumeAtExit = controller.control.resumeAtExit
        if resumeAtExit != nil || socket != nil {
            signals.exitGuard.setLastWords { [player] in
                resumeAtExit?.saveFromSnapshot(of: player)
                socket?.removeSocketFile()
            }
        }

        var keyReader: KeyReader?
        if interactive && RawTerminal.isForeground() {
            RawTerminal.enable(fd: STDIN_FILENO)
            keyReader = KeyReader { key in inbox.send(.key(key)) }
            keyReader?.start()
            if !options.quiet { output.err("Press '?' for the keys, 'q' to quit.") }
        } else if !interactive {
            LineConsole(onItem: { item in
                switch item {
                case .line(let line): inbox.send(.line(line))
                case .tooLong(let limit): inbox.send(.lineTooLong(limit))
                }
            }, onEnd: { inbox.send(.inputEnded) }).start()
        }

        let stopInput: @Sendable () -> Void = { [keyReader] in
            keyReader?.stop()
            RawTerminal.restore()
        }
        await controller.noteFailedPlaylists(expanded.failed)
        let code = await controller.run(inbox, stopInput: stopInput)
        withExtendedLifetime(signals) {}
        return code
    }
}
