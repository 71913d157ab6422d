import Backend
import Foundation

/// Wires the program together and owns the main thread: creates the output, the player and
/// the controller, starts the console or the key reader, then blocks until the ``ExitGate``
/// opens, restores the terminal, shuts the player down and exits.
///
/// **Thread:** ``run()`` on the main thread only. Everything else runs on the controller's
/// queue, the Backend's loop thread, the input thread and the signal queue.
struct App {
    let options: RunOptions

    func run() -> Never {
        let exitGate = ExitGate()
        let signals = SignalWatcher(exitGate: exitGate)
        signals.install()

        let output = Output()
        let interactive = !options.json && TerminalSize.isTerminal(STDIN_FILENO) && TerminalSize.isTerminal(STDOUT_FILENO)
        if options.json { output.out(JSONProtocol.hello().serialized) }

        let queue = DispatchQueue(label: "gstplay.controller")
        let reporter = EventReporter(output: output, mode: options.json ? .json : .text(statusLine: interactive && !options.quiet),
                                     quiet: options.quiet, showsVideoSize: options.videoSink != .disabled)
        let initialVolume = options.volumePercent.map { VolumeScale.linear(fromCubic: $0 / 100) } ?? 1
        let controller = PlaybackController(
            queue: queue,
            playlist: Playlist.expanding(options.locations, loops: options.loop),
            settings: .init(start: options.start, keepOpen: options.keepOpen, json: options.json),
            reporter: reporter, output: output, exitGate: exitGate,
            initialVolume: initialVolume, initialMuted: options.mute, initialRate: options.rate ?? 1)

        let player = Player(configuration: options.playerConfiguration(delegateQueue: queue), delegate: controller)
        if let rate = options.rate { try? player.setRate(rate) }          // validated by GstplayCommand
        if options.volumePercent != nil { player.setVolume(initialVolume) }
        if options.mute { player.setMuted(true) }
        queue.async { controller.start(player: player) }

        var keyReader: KeyReader?
        if interactive && RawTerminal.isForeground() {
            RawTerminal.enable(fd: STDIN_FILENO)
            let reader = KeyReader { key in queue.async { controller.handle(key: key) } }
            reader.start()
            keyReader = reader
            reporter.note("Press '?' for the keys, 'q' to quit.")
        } else if !interactive {
            LineConsole(onItem: { item in
                queue.async {
                    switch item {
                    case .line(let line): controller.handle(line: line)
                    case .tooLong(let limit): controller.lineTooLong(limit: limit)
                    }
                }
            }, onEnd: { queue.async { controller.inputEnded() } }).start()
        }

        let code = exitGate.wait()
        keyReader?.stop()
        // Let the command that decided (and its reply) finish, stop taking input, then tear down.
        queue.async { controller.markFinished() }
        Self.drain(queue)
        RawTerminal.restore()
        output.closeStatus()
        player.shutdown()
        Self.drain(queue)
        withExtendedLifetime((controller, signals)) {}
        exit(code)
    }

    /// Waits (at most `seconds`) for everything already queued on `queue` to run.
    static func drain(_ queue: DispatchQueue, seconds: Double = 2) {
        let done = DispatchSemaphore(value: 0)
        queue.async { done.signal() }
        _ = done.wait(timeout: .now() + seconds)
    }
}
