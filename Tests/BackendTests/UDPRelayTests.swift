import Foundation
import Glibc
import TestSupport
import XCTest

/// The test support's UDP relay (the sync bench puts the network clock's packets through it):
/// datagrams reach the server and come back, each held about the configured delay ± jitter, and
/// about the configured share is dropped. Real sockets on 127.0.0.1. Load-proof bounds: the relay
/// never delivers before a datagram's time, so lower bounds are firm; upper ones are generous.
final class UDPRelayTests: XCTestCase {
    func testDelayJitterAndLossInBothDirections() throws {
        let server = try UDPEndpoint()
        let client = try UDPEndpoint()
        let shape = UDPLinkShape(delayMilliseconds: 20, jitterMilliseconds: 10, loss: 0.1)
        let relay = try UDPRelay(listenHost: "127.0.0.1", listenPort: 0, serverHost: "127.0.0.1", serverPort: UInt16(server.port), shape: shape)
        defer { relay.stop() }

        // The server notes each datagram's one-way delay (the sender's monotonic time is inside) and echoes it.
        let oneWay = Locked<[Double]>([])
        let roundTrips = Locked<[Double]>([])
        let done = Locked(false)
        Thread.detachNewThread {
            while !done.value {
                guard let (bytes, from) = server.receive() else { continue }
                oneWay.update { $0.append(Double(UDPRelay.monotonicNow() - Self.sentTime(bytes)) / 1e6) }
                server.send(bytes, to: from)
            }
        }
        Thread.detachNewThread {
            while !done.value {
                guard let (bytes, _) = client.receive() else { continue }
                roundTrips.update { $0.append(Double(UDPRelay.monotonicNow() - Self.sentTime(bytes)) / 1e6) }
            }
        }
        defer { done.update { $0 = true } }

        let count = 400
        let relayAddress = UDPEndpoint.loopback(port: relay.port)
        for _ in 0..<count {
            withUnsafeBytes(of: UDPRelay.monotonicNow()) { client.send(Array($0), to: relayAddress) }
            usleep(1_000)
        }
        // Every datagram was either dropped or delivered, both ways.
        XCTAssertTrue(eventually(timeout: .seconds(60), interval: .milliseconds(100)) {
            let counts = relay.statistics
            return counts.toServer + counts.droppedToServer == count && counts.toServer == oneWay.value.count
                && counts.toClient + counts.droppedToClient == counts.toServer && counts.toClient == roundTrips.value.count
        }, "relay \(relay.statistics), server got \(oneWay.value.count), client got \(roundTrips.value.count)")

        let delays = oneWay.value.sorted()
        let trips = roundTrips.value.sorted()
        let lost = count - delays.count
        print("UDPRelayTests: lost \(lost)/\(count) on the way in; one-way ms p10 \(delays[delays.count / 10]) p50 \(delays[delays.count / 2]) p90 \(delays[delays.count * 9 / 10]); round trips \(trips.count), min \(trips.first ?? -1) ms")
        // 10 % of 400: 40 expected, σ ≈ 6.
        XCTAssertTrue((12...80).contains(lost), "lost \(lost) of \(count) at 10 %")
        // Delays: never under delay − jitter; spread by the jitter (uniform over 20 ms: p90 − p10 ≈ 16 ms).
        XCTAssertGreaterThanOrEqual(delays[0], 9.5)
        XCTAssertGreaterThanOrEqual(delays[delays.count * 9 / 10] - delays[delays.count / 10], 5)
        XCTAssertLessThan(delays[delays.count / 2], 20 + 10 + 500)
        // Replies come back through the relay too: two shaped legs.
        XCTAssertGreaterThan(trips.count, count / 2)
        XCTAssertGreaterThanOrEqual(trips[0], 19)
    }

    /// The monotonic time a datagram carries in its first 8 bytes.
    private static func sentTime(_ bytes: [UInt8]) -> UInt64 {
        bytes.withUnsafeBytes { $0.loadUnaligned(as: UInt64.self) }
    }
}

/// A value behind a lock, for the test's threads.
private final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Value
    init(_ value: Value) { stored = value }
    var value: Value { lock.withLock { stored } }
    func update(_ change: (inout Value) -> Void) { lock.withLock { change(&stored) } }
}

/// A UDP socket on 127.0.0.1 (any free port) that receives with a 100 ms timeout.
private final class UDPEndpoint: @unchecked Sendable {
    let fd: Int32
    let port: Int

    init() throws {
        let descriptor = socket(AF_INET, Int32(SOCK_DGRAM.rawValue), 0)
        var address = Self.loopback(port: 0)
        let bound = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } }
        guard descriptor >= 0, bound == 0 else { throw NSError(domain: "UDPEndpoint", code: Int(errno)) }
        var actual = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &actual) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) } }
        var timeout = timeval(tv_sec: 0, tv_usec: 100_000)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        fd = descriptor
        port = Int(UInt16(bigEndian: actual.sin_port))
    }

    deinit { close(fd) }

    static func loopback(port: UInt16) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return address
    }

    func receive() -> ([UInt8], sockaddr_in)? {
        var buffer = [UInt8](repeating: 0, count: 2048)
        var from = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let count = buffer.withUnsafeMutableBytes { raw in
            withUnsafeMutablePointer(to: &from) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { recvfrom(fd, raw.baseAddress, raw.count, 0, $0, &length) } }
        }
        guard count >= 8 else { return nil }
        return (Array(buffer[0..<count]), from)
    }

    func send(_ bytes: [UInt8], to address: sockaddr_in) {
        var destination = address
        bytes.withUnsafeBytes { raw in
            _ = withUnsafePointer(to: &destination) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { sendto(fd, raw.baseAddress, raw.count, 0, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
        }
    }
}
