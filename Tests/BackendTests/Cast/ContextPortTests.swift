@testable import BackendCast
import Glibc
import XCTest

/// ``ContextPort``: the port GUPnP's contexts get is free for TCP (their HTTP server) and UDP
/// (their SSDP socket) alike, and a port held by a TCP listener is never handed out.
final class ContextPortTests: XCTestCase {
    /// Binds a socket of `type` on 0.0.0.0:`port` (no SO_REUSEADDR); its descriptor, or -1.
    private func bound(_ type: Int32, port: UInt16) -> Int32 {
        let fd = socket(AF_INET, type, 0)
        guard fd >= 0 else { return -1 }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        if result != 0 { close(fd); return -1 }
        return fd
    }

    func testThePortBindsForTCPAndUDP() {
        for _ in 0..<5 {
            let port = ContextPort.freeForTCPAndUDP()
            XCTAssertNotEqual(port, 0)
            let tcp = bound(Int32(SOCK_STREAM.rawValue), port: port)
            let udp = bound(Int32(SOCK_DGRAM.rawValue), port: port)
            XCTAssertGreaterThanOrEqual(tcp, 0, "TCP \(port) was taken")
            XCTAssertGreaterThanOrEqual(udp, 0, "UDP \(port) was taken")
            if tcp >= 0 { close(tcp) }
            if udp >= 0 { close(udp) }
        }
    }

    func testAPortWhoseTCPTwinIsTakenIsNotHandedOut() {
        // Hold 20 UDP ports' TCP twins: none of them may come back.
        var held: [(UInt16, Int32)] = []
        for _ in 0..<20 {
            let udp = bound(Int32(SOCK_DGRAM.rawValue), port: 0)
            guard udp >= 0 else { continue }
            var address = sockaddr_in(); var length = socklen_t(MemoryLayout<sockaddr_in>.size)
            _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(udp, $0, &length) } }
            close(udp)
            let port = UInt16(bigEndian: address.sin_port)
            let tcp = bound(Int32(SOCK_STREAM.rawValue), port: port)
            if tcp >= 0 { held.append((port, tcp)) }
        }
        defer { for (_, fd) in held { close(fd) } }
        XCTAssertFalse(held.isEmpty)
        for _ in 0..<20 {
            let port = ContextPort.freeForTCPAndUDP()
            XCTAssertFalse(held.contains { $0.0 == port }, "\(port) is held by a TCP socket")
        }
    }
}
