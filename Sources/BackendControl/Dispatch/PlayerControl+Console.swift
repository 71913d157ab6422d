import Backend
import Glibc
import Synchronization

extension PlayerControl {
    /// Serves gstplay's JSON protocol on a line console, as `gstplay --json` does on stdin and
    /// stdout: `hello` first, then one request per line read from `input` (JSON, or a console
    /// command as text) with its reply, and every player event as a JSON line, on `output`.
    /// The console is the local user (``CommandDoor/local``: it may write files where it names).
    /// Starts the same request and event tasks as ``serveSocket(path:)``; only for a control
    /// made with ``init(player:configuration:log:)``. Reading ends at `input`'s end; playback
    /// goes on. Any thread; call once.
    public nonisolated func serveConsole(input: Int32 = STDIN_FILENO, output: Int32 = STDOUT_FILENO) {
        guard let requests else { return }
        consoleSink.open(output)
        consoleSink.write(WireEvents.hello())
        LineConsole(fd: input, onItem: { item in
            switch item {
            case .line(let line): requests.request(line, from: .console)
            case .tooLong(let limit): requests.requestTooLong(limit: limit, from: .console)
            }
        }, onEnd: {}).start()
        startServing()
    }
}

/// Where a served console's lines go: one descriptor, whole lines, one writer at a time (a
/// `Mutex`), so a reply never interleaves with an event. Nothing is written before ``open(_:)``.
/// **Thread:** any.
final class ConsoleSink: Sendable {
    private let fd = Mutex<Int32?>(nil)

    /// Lines go to `fd` from now on.
    func open(_ descriptor: Int32) { fd.withLock { $0 = descriptor } }

    /// Whether a console is served.
    var isOpen: Bool { fd.withLock { $0 != nil } }

    /// `line` and a newline, written whole (`write(2)` until done; retried on `EINTR`, dropped
    /// on other errors such as `EPIPE`).
    func write(_ line: String) {
        fd.withLock { descriptor in
            guard let descriptor else { return }
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
}
