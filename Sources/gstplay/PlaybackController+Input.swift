import Backend
import BackendControl

/// Console lines and keys: the input half of the CLI actor. Each runs through the library's
/// dispatcher (``PlayerControl``), and its reply is written before the next input is taken.
///
/// **Thread:** the ``PlaybackController`` actor.
extension PlaybackController {
    /// One line from the console (text or, in `--json` mode, JSON or text).
    func handle(line: String) async {
        guard !line.trimmingWhitespaceAndNewlines().isEmpty else { return }
        if settings.json {
            await control.dispatch(line, from: .console)
        } else {
            switch ConsoleCommand.parse(line) {
            case .failure(let error):
                output.err("gstplay: error: \(error.message)")
            case .success(let command):
                show(await control.execute(command))
            }
        }
    }

    /// A console (or control client's) line that exceeded the length limit.
    func lineTooLong(limit: Int, from client: ControlClientID = .console) async {
        if settings.json || client != .console {
            await control.lineTooLong(limit: limit, from: client)
        } else {
            output.err("gstplay: error: line too long (more than \(limit) bytes); ignored")
        }
    }

    /// A key pressed on the TTY (its canonical name, ``Key/name``), or typed into the video window
    /// (``WindowKeyNames``): its binding's command (``InputBindings``) runs as a console line does.
    /// Seeks from keys do not wait for their landing: held keys are coalesced by the player's seek throttle.
    func handle(keyNamed name: String) async {
        guard let command = settings.bindings.binding(forKeyNamed: name)?.parsed else { return }
        if case .seek(let target) = command {
            show(await control.seek(target, awaitingLanding: false))
        } else {
            show(await control.execute(command))
        }
    }

    /// A text-mode outcome: its error on stderr, its lines on stdout.
    private func show(_ outcome: CommandOutcome) {
        if let error = outcome.error { output.err("gstplay: error: \(error)") }
        if !outcome.text.isEmpty { output.out(lines: outcome.text) }
    }
}

/// What the dispatcher leaves to the CLI: the exit status.
extension PlaybackController: PlayerControlHost {
    func quit(code: Int32?) {
        finish(code ?? policy.exitCode)
    }
}
