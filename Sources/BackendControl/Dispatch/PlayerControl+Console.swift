import Backend
import Glibc

extension PlayerControl {
    /// Serves gstplay's JSON protocol on a line console, as `gstplay --json` does on stdin and
    /// stdout: `hello` first, then one request per line read from `input` (JSON, or a console
    /// command as text) with its reply, and every player event as a JSON line, on `output`.
    /// The console is the local user (``CommandDoor/local``: it may write files where it names).
    /// Its requests go to the same tasks as ``serveSocket(path:)``'s; only for a control
    /// made with ``init(player:configuration:log:)``. Reading ends at `input`'s end; playback
    /// goes on. Any thread; call once.
    public nonisolated func serveConsole(input: Int32 = STDIN_FILENO, output: Int32 = STDOUT_FILENO) {
        guard let requests else { return }
        Task { await self.openConsole(input: input, output: output, requests: requests) }
    }

    /// On the actor, so every console line (`hello`, replies, events) is written by it, one at
    /// a time: `hello`, then the reader of `input` starts.
    private func openConsole(input: Int32, output: Int32, requests: RequestQueue) {
        consoleOutput = output
        toConsole(WireEvents.hello())
        LineConsole(fd: input, onItem: { item in
            switch item {
            case .line(let line): requests.request(line, from: .console)
            case .tooLong(let limit): requests.requestTooLong(limit: limit, from: .console)
            }
        }, onEnd: {}).start()
    }

    /// A line for the console: to the host's writer, else to the served console's descriptor
    /// (``writeLine(_:to:)``), else nowhere.
    func toConsole(_ line: String) {
        if let console { return console(line) }
        if let consoleOutput { Self.writeLine(line, to: consoleOutput) }
    }

    /// `line` and a newline, written whole (`write(2)` until done; retried on `EINTR`, dropped
    /// on other errors such as `EPIPE`).
    private static func writeLine(_ line: String, to descriptor: Int32) {
        let bytes = Array((line + "\n").utf8)
        var offset = 0
        bytes.withUnsafeBytes { buffer in
            while offset < buffer.count {
                let written = Glibc.write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if written > 0 { offset += written; continue }
                if written < 0 && errno == EINTR { continue }
                return
            }
        }
    }
}

