#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// What a ``UDPRelay`` does to each datagram: hold it `delay` ± `jitter` (uniform) milliseconds,
/// or drop it with probability `loss` (0…1). The same in both directions. A plain value.
public struct UDPLinkShape: Sendable, Equatable {
    /// Mean one-way delay added, in milliseconds (≥ 0).
    public var delayMilliseconds: Double
    /// Half-width of the uniform jitter around the delay, in milliseconds (≥ 0; a negative
    /// resulting delay counts as 0).
    public var jitterMilliseconds: Double
    /// Probability that a datagram is dropped, 0…1.
    public var loss: Double

    /// A shape; values are clamped to their ranges.
    public init(delayMilliseconds: Double = 0, jitterMilliseconds: Double = 0, loss: Double = 0) {
        self.delayMilliseconds = max(0, delayMilliseconds)
        self.jitterMilliseconds = max(0, jitterMilliseconds)
        self.loss = min(1, max(0, loss))
    }
}

/// A UDP relay for tests and the sync bench (the kernel here has no netem): datagrams that
/// reach its client-side port are sent on to a server address from a socket of their own per
/// client (so the server's replies find their way back), and the server's replies go back to that
/// client from the client-side port — each datagram delayed and possibly dropped as ``UDPLinkShape`` says.
///
/// One thread runs the relay (`poll` on every socket, a queue of datagrams due later);
/// ``stop()`` ends it. IPv4 only. **Thread:** any.
public final class UDPRelay: @unchecked Sendable {
    /// Why the relay could not start.
    public struct SetupError: Error, CustomStringConvertible, Sendable {
        /// The reason.
        public let description: String
    }

    /// Datagrams forwarded and dropped, per direction.
    public struct Counts: Sendable, Equatable {
        /// Client → server: sent on, dropped.
        public var toServer = 0, droppedToServer = 0
        /// Server → client: sent on, dropped.
        public var toClient = 0, droppedToClient = 0
    }

    /// The client-side port (the one asked for, or the kernel's choice for 0).
    public let port: UInt16
    private let shape: UDPLinkShape
    private let listener: Int32
    private let server: sockaddr_in
    private let lock = NSLock()
    private var stopping = false
    private var finished = false
    private var counts = Counts()

    /// Binds `listenHost:listenPort` (0: any free port) and starts relaying to
    /// `serverHost:serverPort` with `shape`. Throws ``SetupError`` for a bad address or a bind failure.
    public init(listenHost: String, listenPort: UInt16, serverHost: String, serverPort: UInt16, shape: UDPLinkShape) throws {
        guard let listenAddress = Self.address(listenHost, listenPort) else { throw SetupError(description: "bad listen address '\(listenHost)'") }
        guard let serverAddress = Self.address(serverHost, serverPort) else { throw SetupError(description: "bad server address '\(serverHost)'") }
        let fd = socket(AF_INET, Int32(SOCK_DGRAM.rawValue), 0)
        guard fd >= 0 else { throw SetupError(description: "socket: \(String(cString: strerror(errno)))") }
        var bound = listenAddress
        let bindResult = withUnsafePointer(to: &bound) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bindResult == 0 else {
            let reason = String(cString: strerror(errno))
            close(fd)
            throw SetupError(description: "bind \(listenHost):\(listenPort): \(reason)")
        }
        var actual = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &actual) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) } }
        port = UInt16(bigEndian: actual.sin_port)
        listener = fd
        server = serverAddress
        self.shape = shape
        let thread = Thread { [self] in run() }
        thread.name = "udp-relay"
        thread.start()
    }

    /// What was forwarded and dropped so far.
    public var statistics: Counts { lock.withLock { counts } }

    /// Ends the relay thread and closes its sockets (waits up to about 1 s). Idempotent.
    public func stop() {
        lock.withLock { stopping = true }
        for _ in 0..<100 where !lock.withLock({ finished }) { usleep(10_000) }
    }

    deinit { stop() }

    // MARK: The relay thread

    /// A datagram waiting for its time.
    private struct Pending {
        let due: UInt64
        let socket: Int32
        let destination: sockaddr_in
        let bytes: [UInt8]
    }

    /// A client: where its datagrams came from, and the socket that talks to the server for it.
    private struct Client {
        let address: sockaddr_in
        let upstream: Int32
    }

    private func run() {
        var clients: [UInt64: Client] = [:]      // key: client IPv4 address and port
        var queue: [Pending] = []                // sorted by due time
        var buffer = [UInt8](repeating: 0, count: 65_536)
        var random = SystemRandomNumberGenerator()
        defer {
            for client in clients.values { close(client.upstream) }
            close(listener)
            lock.withLock { finished = true }
        }
        while !lock.withLock({ stopping }) {
            let now = Self.monotonicNow()
            while let first = queue.first, first.due <= now {
                queue.removeFirst()
                send(first)
            }
            let wait = queue.first.map { Int32(min(50, ($0.due - now + 999_999) / 1_000_000)) } ?? 50
            var descriptors = [pollfd(fd: listener, events: Int16(POLLIN), revents: 0)]
            let upstreams = Array(clients.values)
            descriptors += upstreams.map { pollfd(fd: $0.upstream, events: Int16(POLLIN), revents: 0) }
            guard poll(&descriptors, nfds_t(descriptors.count), wait) > 0 else { continue }
            for (index, descriptor) in descriptors.enumerated() where descriptor.revents & Int16(POLLIN) != 0 {
                var from = sockaddr_in()
                var length = socklen_t(MemoryLayout<sockaddr_in>.size)
                let received = buffer.withUnsafeMutableBytes { raw in
                    withUnsafeMutablePointer(to: &from) {
                        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { recvfrom(descriptor.fd, raw.baseAddress, raw.count, 0, $0, &length) }
                    }
                }
                guard received >= 0 else { continue }
                let bytes = Array(buffer[0..<received])
                let toServer = index == 0
                let dropped = Double.random(in: 0..<1, using: &random) < shape.loss
                lock.withLock {
                    switch (toServer, dropped) {
                    case (true, false): counts.toServer += 1
                    case (true, true): counts.droppedToServer += 1
                    case (false, false): counts.toClient += 1
                    case (false, true): counts.droppedToClient += 1
                    }
                }
                guard !dropped else { continue }
                let jitter = shape.jitterMilliseconds > 0 ? Double.random(in: -shape.jitterMilliseconds...shape.jitterMilliseconds, using: &random) : 0
                let due = Self.monotonicNow() + UInt64(max(0, shape.delayMilliseconds + jitter) * 1_000_000)
                let pending: Pending
                if toServer {
                    let key = UInt64(from.sin_addr.s_addr) << 16 | UInt64(from.sin_port)
                    if clients[key] == nil {
                        let upstream = socket(AF_INET, Int32(SOCK_DGRAM.rawValue), 0)
                        guard upstream >= 0 else { continue }
                        clients[key] = Client(address: from, upstream: upstream)
                    }
                    pending = Pending(due: due, socket: clients[key]!.upstream, destination: server, bytes: bytes)
                } else {
                    pending = Pending(due: due, socket: listener, destination: upstreams[index - 1].address, bytes: bytes)
                }
                let at = queue.firstIndex { $0.due > due } ?? queue.count
                queue.insert(pending, at: at)
            }
        }
    }

    private func send(_ pending: Pending) {
        var destination = pending.destination
        pending.bytes.withUnsafeBytes { raw in
            _ = withUnsafePointer(to: &destination) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    sendto(pending.socket, raw.baseAddress, raw.count, 0, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
        }
    }

    /// `host` (dotted IPv4, or empty / `0.0.0.0` for any) and `port` as a socket address.
    static func address(_ host: String, _ port: UInt16) -> sockaddr_in? {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        guard inet_pton(AF_INET, host.isEmpty ? "0.0.0.0" : host, &address.sin_addr) == 1 else { return nil }
        return address
    }

    /// `CLOCK_MONOTONIC` in nanoseconds.
    public static func monotonicNow() -> UInt64 {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return UInt64(spec.tv_sec) * 1_000_000_000 + UInt64(spec.tv_nsec)
    }
}
