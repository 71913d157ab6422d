import Backend
import BackendCore
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import GLibSupport
import Glibc
import Synchronization

/// A line console's input (the CLI's console, ``PlayerControl/serveConsole(input:output:)``): reads a descriptor (stdin by default) on its own thread with blocking `read(2)` and hands
/// each line (or too-long notice) to `onItem`, then calls `onEnd` once at EOF or on a read
/// error. The thread is never joined, so a blocked read cannot hold up shutdown.
///
/// **Thread:** ``start()`` from any thread; the callbacks run on the `gstplay-console` thread.
public final class LineConsole: Sendable {
    private let fd: Int32
    private let maxLineLength: Int
    private let onItem: @Sendable (LineSplitter.Item) -> Void
    private let onEnd: @Sendable () -> Void

    /// A reader of `fd` whose lines (at most `maxLineLength` bytes each) go to `onItem`, and
    /// whose end (or read error) calls `onEnd`; nothing is read before ``start()``.
    public init(fd: Int32 = STDIN_FILENO, maxLineLength: Int = 64 * 1024,
         onItem: @escaping @Sendable (LineSplitter.Item) -> Void, onEnd: @escaping @Sendable () -> Void) {
        self.fd = fd
        self.maxLineLength = maxLineLength
        self.onItem = onItem
        self.onEnd = onEnd
    }

    /// Starts the reader thread (`gstplay-console`). Call once.
    public func start() {
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
