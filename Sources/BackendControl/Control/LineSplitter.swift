/// Cuts a byte stream into lines. Lines end at `\n` (a trailing `\r` is dropped); bytes that
/// are not UTF-8 become U+FFFD; a line longer than `maxLength` bytes is reported once as
/// ``Item/tooLong(_:)`` and its bytes are skipped up to the next newline, so memory stays bounded.
/// Pure; used on the console reader thread.
public struct LineSplitter: Sendable {
    /// What a feed gives: a complete line, or the notice that one was too long.
    public enum Item: Equatable, Sendable {
        case line(String)
        /// A line was longer than the limit (the limit is given) and was discarded.
        case tooLong(Int)
    }

    /// The longest line kept, in bytes.
    public let maxLength: Int
    private var buffer: [UInt8] = []
    private var discarding = false

    /// A splitter keeping lines of at most `maxLength` bytes.
    public init(maxLength: Int = 64 * 1024) { self.maxLength = maxLength }

    /// Feeds bytes; returns the complete lines they finish.
    public mutating func feed<Bytes: Collection>(_ bytes: Bytes) -> [Item] where Bytes.Element == UInt8 {
        var items: [Item] = []
        var start = bytes.startIndex
        while start != bytes.endIndex {
            let newline = bytes[start...].firstIndex(of: UInt8(ascii: "\n"))
            let chunk = bytes[start..<(newline ?? bytes.endIndex)]
            if !discarding {
                if buffer.count + chunk.count > maxLength {
                    discarding = true
                    buffer.removeAll(keepingCapacity: false)
                    items.append(.tooLong(maxLength))
                } else {
                    buffer.append(contentsOf: chunk)
                }
            }
            guard let newline else { break }
            if !discarding { items.append(.line(Self.decode(buffer))) }
            buffer.removeAll(keepingCapacity: true)
            discarding = false
            start = bytes.index(after: newline)
        }
        return items
    }

    /// At end of input: the last line if it had no newline.
    public mutating func finish() -> [Item] {
        defer { buffer.removeAll(); discarding = false }
        return discarding || buffer.isEmpty ? [] : [.line(Self.decode(buffer))]
    }

    private static func decode(_ bytes: [UInt8]) -> String {
        var slice = bytes[...]
        if slice.last == UInt8(ascii: "\r") { slice = slice.dropLast() }
        return String(decoding: slice, as: UTF8.self)
    }
}
