import GLibSupport
import Glibc

/// Closes a WebSocket client whose message is over the size limit with the close frame 1009
/// ("message too big") that libsoup 3.2 does not send: on a frame over
/// `max-incoming-payload-size` it emits `error` and closes the socket at once (its "prejudice"
/// close), without a close frame, while the rest of the client's frame is still unread — and a
/// socket closed with unread input makes the kernel send a reset, which can discard what the
/// client had not read yet.
///
/// Works on a duplicate of the socket's descriptor (`dup`), taken in libsoup's `error` signal
/// before libsoup closes its own: the connection lives on in the duplicate. The close frame is
/// written there, the sending side shut (`SHUT_WR`: the client reads the frame, then the end),
/// and what the client still sends is read and dropped until it closes — at most 1 MiB or 2 s,
/// as ``RefusedConnection`` does for refused HTTP requests — before the duplicate is closed.
///
/// **Thread:** the server's thread. The object keeps itself alive through its watch until done.
final class WebSocketRefusal {
    private let fd: Int32
    private var watch: TimerSource?
    private var timer: TimerSource?
    private var drained = 0

    /// The unmasked close frame a server sends: `code` and `reason` (cut to fit the 125-byte
    /// control frame payload).
    static func closeFrame(code: UInt16, reason: String) -> [UInt8] {
        let text = Array(reason.utf8.prefix(123))
        return [0x88, UInt8(2 + text.count), UInt8(code >> 8), UInt8(code & 0xFF)] + text
    }

    /// Duplicates `socketFD`, sends the close frame with `code` and `reason` on it and drains.
    /// Nothing happens when the descriptor cannot be duplicated (libsoup's close stays as it was).
    @discardableResult
    static func start(socketFD: Int32, code: UInt16, reason: String, on loop: MainLoopThread) -> WebSocketRefusal? {
        let copy = dup(socketFD)
        guard copy >= 0 else { return nil }
        let refusal = WebSocketRefusal(fd: copy)
        refusal.send(closeFrame(code: code, reason: reason))
        shutdown(copy, Int32(SHUT_WR))
        refusal.watch = loop.addReadWatch(fileDescriptor: copy) { refusal.drain() }
        refusal.timer = loop.addTimer(every: .seconds(RefusedConnection.drainSeconds)) {
            refusal.finish()
            return false
        }
        return refusal
    }

    private init(fd: Int32) { self.fd = fd }

    private func send(_ bytes: [UInt8]) {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL | MSG_DONTWAIT)) }
            if sent < 0 && errno == EINTR { continue }
            if sent <= 0 { return }          // a full buffer: a client that does not read gets the end only
            offset += sent
        }
    }

    /// Reads what is there; false (and closed) at the end, an error or the limit.
    private func drain() -> Bool {
        var buffer = [UInt8](repeating: 0, count: 65536)
        let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
        if count < 0 && (errno == EAGAIN || errno == EINTR) { return true }
        if count > 0 { drained += count }
        if count <= 0 || drained >= RefusedConnection.drainLimit {
            finish()
            return false
        }
        return true
    }

    /// Closes the duplicate (idempotent); the watch and the timer are removed, which releases the object.
    private func finish() {
        guard watch != nil || timer != nil else { return }
        watch?.destroy()
        timer?.destroy()
        watch = nil
        timer = nil
        close(fd)
    }
}
