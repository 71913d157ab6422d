import Foundation

/// Every SSDP packet (UDP port 1900, IPv4 and IPv6) on one interface of a ``RendererLab``,
/// captured by `ssdp_sniffer.py` (next to this file) with an `AF_PACKET` socket: it sees each
/// frame the link carries, in both directions, whether or not anyone joined the multicast group.
/// Started on the renderers' end of the veth it sees everything the client side sends. Stops when
/// ``stop()`` closes its stdin, or with the test process. Any thread.
public final class SSDPSniffer: @unchecked Sendable {
    /// `<root>/Tests/TestSupport/ssdp_sniffer.py`.
    public static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("ssdp_sniffer.py")

    /// One packet.
    public struct Packet: Decodable, Sendable, Equatable {
        /// Source and destination addresses.
        public var src: String, dst: String
        /// Source and destination ports.
        public var sport: Int, dport: Int
        /// Sent from the captured interface (rather than received on it).
        public var outgoing: Bool
        /// The payload's first line: `M-SEARCH * HTTP/1.1`, `NOTIFY * HTTP/1.1`, `HTTP/1.1 200 OK`.
        public var start: String
    }

    private let child: GstplayProcess

    /// Starts capturing on the renderers' end of `lab`'s veth (`onClientSide`: on the client's
    /// end instead) and waits until the socket is bound.
    public init(lab: RendererLab, onClientSide: Bool = false) throws {
        let arguments = ["python3", Self.script.path, onClientSide ? lab.clientInterface : lab.rendererInterface]
        let line = onClientSide ? lab.clientCommand(arguments) : lab.rendererCommand(arguments)
        child = GstplayProcess.tool(line[0].hasPrefix("/") ? line[0] : "/usr/bin/env", line[0].hasPrefix("/") ? Array(line.dropFirst()) : line)
        try child.start()
        guard child.waitForLine(containing: "READY", timeout: 10) else {
            stop()
            throw NSError(domain: "SSDPSniffer", code: 1, userInfo: [NSLocalizedDescriptionKey: "sniffer did not start: \(child.stderr)"])
        }
    }

    /// The packets captured so far.
    public var packets: [Packet] {
        child.stdoutLines.compactMap { try? JSONDecoder().decode(Packet.self, from: Data($0.utf8)) }
    }

    /// Waits until a packet satisfying `predicate` was captured; returns it (nil at the deadline).
    public func waitForPacket(timeout: TimeInterval = 10, _ predicate: @escaping (Packet) -> Bool) -> Packet? {
        var found: Packet?
        child.waitFor(timeout: timeout) { out, _ in
            found = GstplayProcess.completeLines(out).lazy
                .compactMap { try? JSONDecoder().decode(Packet.self, from: Data($0.utf8)) }.first(where: predicate)
            return found != nil
        }
        return found
    }

    /// Stops capturing (closes its stdin) and waits for it. Idempotent.
    public func stop() {
        child.closeInput()
        _ = child.waitForExit(timeout: 5)
    }

    deinit { if child.process.isRunning { stop() } }
}
