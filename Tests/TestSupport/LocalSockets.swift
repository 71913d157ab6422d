import Foundation
import Glibc

/// Sockets on 127.0.0.1 for network-failure tests: a TCP port nobody listens on (connections
/// are refused) and a UDP port held by a socket that never sends (a silent live source).
/// Port 0 lets the kernel choose, so parallel test processes never collide. Any thread.
public enum LocalSockets {
    /// A TCP port on 127.0.0.1 that refuses connections: bound to port 0 (the kernel picks a free
    /// one), read back with `getsockname`, then closed without `listen`. Nil when no socket can be made.
    public static func refusingTCPPort() -> Int? {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        return bindLoopback(fd)
    }

    /// A listening TCP socket on 127.0.0.1 that never accepts and never sends: the kernel
    /// completes connections into its backlog, so a client connects and then hears nothing (a
    /// silent server). Returns the descriptor (close it with `close(2)`) and the port.
    public static func silentTCPListener() -> (fd: Int32, port: Int)? {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return nil }
        guard let port = bindLoopback(fd), listen(fd, 8) == 0 else { close(fd); return nil }
        return (fd, port)
    }

    /// Binds `fd` to 127.0.0.1 port 0 and returns the port the kernel chose.
    static func bindLoopback(_ fd: Int32) -> Int? {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0 else { return nil }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let named = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        return named == 0 ? Int(UInt16(bigEndian: address.sin_port)) : nil
    }
}

/// A UDP socket bound to 127.0.0.1 on a free port that never sends anything (a live source
/// that stays silent). It sets `SO_REUSEADDR`, as `udpsrc` does, so the player can bind the same
/// port while an unrelated socket (without it) cannot take the port away. Closed by ``close()`` or deinit. Any thread.
public final class SilentUDPPort: @unchecked Sendable {
    private var fd: Int32
    /// The bound port.
    public let port: Int

    /// Binds the socket; throws when no socket can be made.
    public init() throws {
        fd = socket(AF_INET, Int32(SOCK_DGRAM.rawValue), 0)
        var reuse: Int32 = 1
        if fd >= 0 { setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &reuse, socklen_t(MemoryLayout<Int32>.size)) }
        guard fd >= 0, let port = LocalSockets.bindLoopback(fd) else {
            if fd >= 0 { Glibc.close(fd) }
            throw NSError(domain: "SilentUDPPort", code: Int(errno), userInfo: [NSLocalizedDescriptionKey: "no UDP socket on 127.0.0.1"])
        }
        self.port = port
    }

    /// `udp://127.0.0.1:<port>`.
    public var uri: String { "udp://127.0.0.1:\(port)" }

    /// Closes the socket. Idempotent.
    public func close() {
        if fd >= 0 { Glibc.close(fd); fd = -1 }
    }

    deinit { close() }
}
