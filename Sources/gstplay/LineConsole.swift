import Backend
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Glibc
import Synchronization

/// Cuts a byte stream into lines. Lines end at `\n` (a trailing `\r` is dropped); bytes that
/// are not UTF-8 become U+FFFD; a line longer than `maxLength` bytes is reported once as
/// ``Item/tooLong(_:)`` and its bytes are skipped up to the next newline, so memory stays bounded.
/// Pure; used on the console reader thread.
struct LineSplitter: Sendable {
    enum Item: Equatable, Sendable {
        case line(String)
        /// A line was longer than the limit (the limit is given) and was discarded.
        case tooLong(Int)
    }

    let maxLength: Int
    private var buffer: [UInt8] = []
    private var discarding = false

    init(maxLength: Int = 64 * 1024) { self.maxLength = maxLength }

    /// Feeds bytes; returns the complete lines they finish.
    mutating func feed<Bytes: Collection>(_ bytes: Bytes) -> [Item] where Bytes.Element == UInt8 {
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
    mutating func finish() -> [Item] {
        defer { buffer.removeAll(); discarding = false }
        return discarding || buffer.isEmpty ? [] : [.line(Self.decode(buffer))]
    }

    private static func decode(_ bytes: [UInt8]) -> String {
        var slice = bytes[...]
        if slice.last == UInt8(ascii: "\r") { slice = slice.dropLast() }
        return String(decoding: slice, as: UTF8.self)
    }
}

/// The line console's input: reads stdin on its own thread with blocking `read(2)` and hands
/// each line (or too-long notice) to `onItem`, then calls `onEnd` once at EOF or on a read
/// error. The thread is never joined, so a blocked read cannot hold up shutdown.
///
/// **Thread:** ``start()`` from any thread; the callbacks run on the `gstplay-console` thread.
final class LineConsole: Sendable {
    private let fd: Int32
    private let maxLineLength: Int
    private let onItem: @Sendable (LineSplitter.Item) -> Void
    private let onEnd: @Sendable () -> Void

    init(fd: Int32 = STDIN_FILENO, maxLineLength: Int = 64 * 1024,
         onItem: @escaping @Sendable (LineSplitter.Item) -> Void, onEnd: @escaping @Sendable () -> Void) {
        self.fd = fd
        self.maxLineLength = maxLineLength
        self.onItem = onItem
        self.onEnd = onEnd
    }

    func start() {
        DetachedThread.start(name: "gstplay-console") { [self] in self.run() }   // name visible in /proc
    }

    private func run() {
        var splitter = LineSplitter(maxLength: maxLineLength)
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            if count <= 0 { break }
            for item in splitter.feed(buffer[0..<count]) { onItem(item) }
        }
        for item in splitter.finish() { onItem(item) }
        onEnd()
    }
}
