import Backend

extension PlaybackController {
    /// A failed cast: its one error line, always shown (also with `--quiet` and
    /// `--json`, on stderr), and the exit code ``ExitStatus/castFailed`` unless an item failed.
    func castFailed(_ message: String) {
        output.err("gstplay: error: cast: \(TerminalText.escaped(message))")
        policy.castFailed = true
    }
}
