import CSoup
import GLibSupport
import Glibc

/// A request the server waits for: its message (referenced) and since when (µs, monotonic).
struct PendingRequest {
    let message: OpaquePointer
    let since: gint64
}

/// A kept-alive connection waiting for its next request: its socket (referenced) and since when.
struct IdleConnection {
    let socket: UnsafeMutablePointer<GSocket>
    let since: gint64
}

/// A refused request's connection, taken from libsoup: the answer is sent, the sending side shut
/// (`shutdown(SHUT_WR)`), then what the client still sends is read and dropped until it closes —
/// at most 1 MiB or 2 s — so its system gets the answer before the close (closing with unread
/// data makes the kernel send a reset, which can discard the answer on the client's side).
///
/// **Thread:** the server's thread.
final class RefusedConnection {
    private let socket: UnsafeMutablePointer<GSocket>   // referenced
    private let stream: UnsafeMutablePointer<GIOStream>  // referenced (stolen)
    private var watch: TimerSource?
    private var timer: TimerSource?
    private var drained = 0
    private var done: (() -> Void)?
    private var finished = false

    /// The most bytes read and dropped after the answer, and for how long.
    static let drainLimit = 1 << 20
    static let drainSeconds = 2

    init(socket: UnsafeMutablePointer<GSocket>, stream: UnsafeMutablePointer<GIOStream>) {
        self.socket = socket
        self.stream = stream
    }

    /// The response as bytes on the wire (HTTP/1.1, `Connection: close`).
    static func wire(_ response: HTTPResponse) -> [UInt8] {
        let phrase = soup_status_get_phrase(UInt32(response.status)).map { String(cString: $0) } ?? "Error"
        var head = "HTTP/1.1 \(response.status) \(phrase)\r\nContent-Type: \(response.contentType)\r\n"
        head += "Content-Length: \(response.body.count)\r\nConnection: close\r\nCache-Control: no-store\r\n"
        for (name, value) in response.headers { head += "\(name): \(value)\r\n" }
        return Array((head + "\r\n").utf8) + response.body
    }

    /// Sends `bytes`, shuts the sending side and drains; `done` runs once it is closed.
    func start(bytes: [UInt8], on loop: MainLoopThread, done: @escaping () -> Void) {
        self.done = done
        let fd = g_socket_get_fd(socket)
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL | MSG_DONTWAIT)) }
            if sent < 0 && errno == EINTR { continue }
            if sent <= 0 { break }          // a full buffer for a few hundred bytes: a client that does not read
            offset += sent
        }
        shutdown(fd, Int32(SHUT_WR))
        watch = loop.addReadWatch(fileDescriptor: fd) { [weak self] in self?.drain() ?? false }
        timer = loop.addTimer(every: .seconds(Self.drainSeconds)) { [weak self] in
            self?.finish()
            return false
        }
    }

    /// Reads what is there; false (and closed) at the end, an error or the limit.
    private func drain() -> Bool {
        var buffer = [UInt8](repeating: 0, count: 65536)
        let count = buffer.withUnsafeMutableBytes { recv(g_socket_get_fd(socket), $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
        if count < 0 && (errno == EAGAIN || errno == EINTR) { return true }
        if count > 0 { drained += count }
        if count <= 0 || drained >= Self.drainLimit {
            finish()
            return false
        }
        return true
    }

    /// Closes the connection (idempotent) and tells the server.
    func finish() {
        guard !finished else { return }
        finished = true
        watch?.destroy()
        timer?.destroy()
        g_io_stream_close(stream, nil, nil)
        g_socket_close(socket, nil)
        g_object_unref(UnsafeMutableRawPointer(stream))
        g_object_unref(UnsafeMutableRawPointer(socket))
        let done = self.done
        self.done = nil
        done?()
    }
}
