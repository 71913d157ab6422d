import Glibc

/// How many bytes handed to one WebSocket have not reached the peer yet: what was handed to
/// libsoup (its queue has no public size) minus what the peer's kernel acknowledged
/// (`getsockopt(TCP_INFO)`'s `tcpi_bytes_acked`, Linux 4.1+). A client that stops reading stops
/// acknowledging once its receive window is full, so its backlog grows and it can be dropped.
/// Server thread only.
struct SendBacklog {
    /// `tcpi_bytes_acked`'s offset in Linux's `struct tcp_info` (8 one-byte fields, 24 `__u32`,
    /// then `tcpi_pacing_rate`, `tcpi_max_pacing_rate`, `tcpi_bytes_acked`); glibc's
    /// `<netinet/tcp.h>` stops before it.
    static let bytesAckedOffset = 120

    private let fd: Int32
    private let ackedAtStart: UInt64
    private(set) var handed: UInt64 = 0

    init(fd: Int32) {
        self.fd = fd
        ackedAtStart = SendBacklog.acked(fd) ?? 0
    }

    /// Counts one text frame of `payload` bytes (plus its unmasked header: 2, 4 or 10 bytes).
    mutating func add(payload: Int) {
        handed += UInt64(payload + (payload < 126 ? 2 : payload < 65536 ? 4 : 10))
    }

    /// Bytes handed and not yet acknowledged (0 when TCP_INFO cannot be read: not TCP).
    var pending: UInt64 {
        guard let acked = SendBacklog.acked(fd) else { return 0 }
        let delivered = acked >= ackedAtStart ? acked - ackedAtStart : 0
        return handed > delivered ? handed - delivered : 0
    }

    private static func acked(_ fd: Int32) -> UInt64? {
        var info = [UInt8](repeating: 0, count: 256)
        var length = socklen_t(info.count)
        let status = info.withUnsafeMutableBytes { getsockopt(fd, Int32(IPPROTO_TCP), TCP_INFO, $0.baseAddress, &length) }
        guard status == 0, Int(length) >= bytesAckedOffset + 8 else { return nil }
        return info.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: bytesAckedOffset, as: UInt64.self) }
    }
}
