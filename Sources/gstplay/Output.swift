import FoundationEssentials
import Backend
import Glibc
import Synchronization

/// Writes whole lines to stdout and stderr, each with one unbuffered `write(2)` loop (so a
/// pipe reader sees every line at once — nothing sits in a stdio buffer), and keeps the TTY
/// status line in place: before any other line is written the status line is cleared, and
/// it is drawn again afterwards.
///
/// Every line and status text goes through ``TerminalText/escaped(_:)`` here, the one place all
/// of gstplay's run output passes: no control character of a file name, tag, cue or error text
/// reaches the terminal raw, and a JSON line stays the same JSON. The only
/// control sequences written are Output's own (`\r`, clear to end of line, the newline).
///
/// **Thread:** any thread; a `Mutex` serialises writers so lines never interleave.
final class Output: Sendable {
    private struct State {
        /// The status text currently drawn (nil: none on screen).
        var status: String?
        /// No more status drawing (shutting down).
        var statusClosed = false
    }

    private let state = Mutex(State())
    private let outFD: Int32
    private let errFD: Int32

    /// `\r` + clear to end of line.
    static let clearLine = "\r\u{1B}[K"

    init(stdout: Int32 = STDOUT_FILENO, stderr: Int32 = STDERR_FILENO) {
        self.outFD = stdout
        self.errFD = stderr
    }

    /// One line on stdout (a newline is added).
    func out(_ line: String) { emit([line], fd: outFD) }

    /// One line on stderr (a newline is added).
    func err(_ line: String) { emit([line], fd: errFD) }

    /// Several lines on stdout in one go.
    func out(lines: [String]) { emit(lines, fd: outFD) }

    private func emit(_ lines: [String], fd: Int32) {
        let text = lines.map { TerminalText.escaped($0) + "\n" }.joined()
        state.withLock { state in
            if state.status != nil { Self.writeAll(outFD, Self.clearLine) }
            Self.writeAll(fd, text)
            if let status = state.status { Self.writeAll(outFD, "\r" + status + "\u{1B}[K") }
        }
    }

    /// Draws `text` as the status line on stdout (`\r`, text, clear to end of line).
    func status(_ text: String) {
        let text = TerminalText.escaped(text)
        state.withLock { state in
            guard !state.statusClosed else { return }
            state.status = text
            Self.writeAll(outFD, "\r" + text + "\u{1B}[K")
        }
    }

    /// Ends the status line for good: moves to a fresh line if one is drawn; later
    /// ``status(_:)`` calls are ignored.
    func closeStatus() {
        state.withLock { state in
            if state.status != nil { Self.writeAll(outFD, "\n") }
            state.status = nil
            state.statusClosed = true
        }
    }

    /// Opens `/dev/null` on each of descriptors 0–2 that is closed (`gstplay <&- >&-`). Called
    /// first thing in `main`: otherwise the next descriptor the process creates (libdispatch's
    /// epoll or eventfd, a media file, an HTTP socket) gets that number, the console reads from
    /// it and output lines are written into it.
    static func reopenClosedStandardDescriptors() {
        for fd in [STDIN_FILENO, STDOUT_FILENO, STDERR_FILENO] where fcntl(fd, F_GETFD) == -1 && errno == EBADF {
            let opened = open("/dev/null", fd == STDIN_FILENO ? O_RDONLY : O_WRONLY)
            if opened >= 0 && opened != fd {
                dup2(opened, fd)
                close(opened)
            }
        }
    }

    /// One line written straight to `fd` (escaped like every ``Output`` line, a newline added),
    /// for the code paths that run without an ``Output`` (usage errors, `thumbnails`, `cache`).
    static func writeLine(_ fd: Int32, _ line: String) {
        writeAll(fd, TerminalText.escaped(line) + "\n")
    }

    /// ArgumentParser's multi-line messages (error, usage, hint) written to `fd`: each line
    /// escaped, the line breaks kept. (ArgumentParser quotes what was typed in its own messages;
    /// a line break typed into an argument then starts a new line, but no escape sequence passes.)
    static func writeLines(_ fd: Int32, _ text: String) {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        let trimmed = lines.last?.isEmpty == true ? lines.dropLast() : lines[...]
        writeAll(fd, trimmed.map { TerminalText.escaped($0) + "\n" }.joined())
    }

    /// `write(2)` until everything is written (raw: callers pass only their own text or text
    /// escaped with ``TerminalText/escaped(_:)``); gives up silently on errors such as `EPIPE`
    /// (SIGPIPE is ignored by the app), retries on `EINTR`.
    static func writeAll(_ fd: Int32, _ text: String) {
        var bytes = Array(text.utf8)
        var offset = 0
        bytes.withUnsafeMutableBytes { buffer in
            while offset < buffer.count {
                let written = write(fd, buffer.baseAddress! + offset, buffer.count - offset)
                if written > 0 { offset += written; continue }
                if written < 0 && errno == EINTR { continue }
                return
            }
        }
    }
}
