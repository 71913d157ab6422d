import CGStreamer
import Glibc

/// The secret every request must carry (`Authorization: Bearer TOKEN` or `?token=TOKEN`).
/// A plain value; any thread.
public struct AccessToken: Sendable, Equatable {
    /// The token's text (URL-safe: hex digits when generated).
    public let text: String

    /// A given token (read from a file by the caller; surrounding whitespace removed).
    public init(_ text: String) { self.text = text.filter { !$0.isWhitespace } }

    /// 128 fresh random bits as 32 hex digits, from the kernel (`/dev/urandom`, GLib's
    /// `g_file_get_contents` is not used so that only 16 bytes are read). Falls back to GLib's
    /// `g_random_int` (seeded from /dev/urandom) when the device cannot be read.
    public static func random() -> AccessToken {
        var bytes = [UInt8](repeating: 0, count: 16)
        var filled = false
        if let file = fopen("/dev/urandom", "rb") {
            filled = fread(&bytes, 1, bytes.count, file) == bytes.count
            fclose(file)
        }
        if !filled { for index in bytes.indices { bytes[index] = UInt8(truncatingIfNeeded: g_random_int()) } }
        let digits = Array("0123456789abcdef")
        return AccessToken(String(bytes.flatMap { [digits[Int($0 >> 4)], digits[Int($0 & 15)]] }))
    }

    /// Whether `request` carries this token, in the `Authorization` header or the `token`
    /// query parameter. The comparison takes the same time wherever the texts differ.
    public func admits(_ request: HTTPRequest) -> Bool {
        var given: String?
        if let header = request.headers["authorization"], header.hasPrefix("Bearer ") {
            given = String(header.dropFirst("Bearer ".count))
        } else {
            given = request.query["token"]
        }
        guard let given else { return false }
        let a = Array(given.utf8), b = Array(text.utf8)
        guard a.count == b.count, !b.isEmpty else { return false }
        var difference: UInt8 = 0
        for index in a.indices { difference |= a[index] ^ b[index] }
        return difference == 0
    }
}
