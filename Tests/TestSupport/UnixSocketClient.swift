import Foundation
import Glibc

/// A raw client of a Unix stream socket for tests of gstplay's control socket: connects (retrying
/// until the server listens), writes bytes or lines, and collects what it reads on a thread of its
/// own, so a test waits for a line with a deadline. ``init(path:reading:timeout:)`` with `reading:
/// false` makes a client that never reads (a slow client). Any thread.
public final class UnixSocketClient: @unchecked Sendable {
    /// The socket's descriptor (-1 once closed).
    public private(set) var fd: Int32
    private let condition = NSCondition()
    private var received = Data()
    private var ended = false

    /// Connects to `path`, retrying for up to `timeout` seconds while nothing listens there yet;
    /// throws when it never connects. With `reading`, a thread collects the replies and events.
    public init(path: String, reading: Bool = true, timeout: TimeInterval = 10) throws {
        let deadline = Date().addingTimeInterval(timeout)
        var connected: Int32 = -1
        repeat {
            connected = Self.connect(path)
            if connected < 0 { Thread.sleep(forTimeInterval: 0.05) }
        } while connected < 0 && Date() < deadline
        guard connected >= 0 else {
            throw NSError(domain: "UnixSocketClient", code: Int(errno), userInfo: [NSLocalizedDescriptionKey: "cannot connect to \(path)"])
        }
        fd = connected
        self.reading = reading
        if reading { startReading() }
    }

    /// A reader thread owns the descriptor: it closes it at EOF, so its number is never reused
    /// under a `recv` still running (which would read another socket's data).
    private let reading: Bool

    /// One `connect(2)` to `path`: the descriptor, or -1.
    public static func connect(_ path: String) -> Int32 {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return -1 }
        let result = withAddress(path) { Glibc.connect(fd, $0, $1) } ?? -1
        if result != 0 { Glibc.close(fd); return -1 }
        return fd
    }

    /// A socket file nobody listens on at `path`, as a killed server leaves it: bound, then
    /// closed without `unlink`. Throws when it cannot be bound.
    public static func makeStaleSocket(at path: String) throws {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        let bound = withAddress(path) { bind(fd, $0, $1) } ?? -1
        let error = errno
        Glibc.close(fd)
        if bound != 0 { throw NSError(domain: "UnixSocketClient", code: Int(error), userInfo: [NSLocalizedDescriptionKey: "cannot bind \(path)"]) }
    }

    /// Calls `body` with `path` as a `sockaddr_un` and its length; nil when the path is too long.
    private static func withAddress(_ path: String, _ body: (UnsafePointer<sockaddr>, socklen_t) -> Int32) -> Int32? {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else { return nil }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in raw.copyBytes(from: bytes) }
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
    }

    private func startReading() {
        let fd = self.fd
        let thread = Thread { [self] in
            var buffer = [UInt8](repeating: 0, count: 65536)
            while true {
                let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
                if count < 0 && errno == EINTR { continue }
                if count <= 0 { break }
                condition.lock(); received.append(contentsOf: buffer[0..<count]); condition.broadcast(); condition.unlock()
            }
            Glibc.close(fd)
            condition.lock(); ended = true; condition.broadcast(); condition.unlock()
        }
        thread.start()
    }

    /// Writes `line` and a newline.
    public func send(_ line: String) { send(Data((line + "\n").utf8)) }

    /// Writes raw bytes (all of them, or until the socket fails); false when writing failed.
    @discardableResult
    public func send(_ data: Data) -> Bool {
        data.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let written = Glibc.send(fd, raw.baseAddress! + offset, raw.count - offset, Int32(MSG_NOSIGNAL))
                if written < 0 && errno == EINTR { continue }
                if written <= 0 { return false }
                offset += written
            }
            return true
        }
    }

    /// The complete lines read so far.
    public var lines: [String] {
        condition.lock(); defer { condition.unlock() }
        return GstplayProcess.completeLines(String(decoding: received, as: UTF8.self))
    }

    /// The complete lines read so far that are JSON objects.
    public var objects: [[String: Any]] { lines.compactMap(jsonObject) }

    /// Whether the server closed the connection (the reader saw EOF).
    public var isClosedByServer: Bool { condition.lock(); defer { condition.unlock() }; return ended }

    /// Waits for a JSON line satisfying `predicate` (after the first `skip` objects); returns it,
    /// or nil at the deadline or when the connection ended without one.
    public func waitForObject(timeout: TimeInterval = 10, after skip: Int = 0, _ predicate: ([String: Any]) -> Bool) -> [String: Any]? {
        let deadline = Date().addingTimeInterval(timeout)
        condition.lock()
        defer { condition.unlock() }
        while true {
            let objects = GstplayProcess.completeLines(String(decoding: received, as: UTF8.self)).compactMap(jsonObject)
            if let found = objects.dropFirst(skip).first(where: predicate) { return found }
            if ended || Date() >= deadline { return nil }
            _ = condition.wait(until: min(deadline, Date().addingTimeInterval(0.5)))
        }
    }

    /// Waits for the reply carrying `request_id` == `id`.
    public func reply(to id: Int, timeout: TimeInterval = 10) -> [String: Any]? {
        waitForObject(timeout: timeout) { ($0["request_id"] as? Int) == id && $0["event"] == nil }
    }

    /// Waits until the server closes the connection; true when it did within `timeout`.
    public func waitForClose(timeout: TimeInterval = 10) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        condition.lock()
        defer { condition.unlock() }
        while !ended && Date() < deadline { _ = condition.wait(until: min(deadline, Date().addingTimeInterval(0.5))) }
        return ended
    }

    /// Shuts the socket down; the reader thread closes it when it sees the end (without one, it
    /// is closed here). Idempotent.
    public func close() {
        guard fd >= 0 else { return }
        shutdown(fd, Int32(SHUT_RDWR))
        if !reading { Glibc.close(fd) }
        fd = -1
    }

    deinit { close() }
}
