import Foundation
import Glibc

/// Feeds bytes into a named pipe (FIFO) from a thread of its own, like `cat file > fifo`:
/// a blocking `open(O_WRONLY)` (it waits for the reader), then `write` until done or the reader
/// goes away (`EPIPE`; SIGPIPE is ignored so that does not kill the test process).
public enum FIFOWriter {
    /// Starts the writer; the returned semaphore is signalled once it has finished.
    @discardableResult
    public static func start(_ bytes: [UInt8], to path: String) -> DispatchSemaphore {
        signal(SIGPIPE, SIG_IGN)
        let done = DispatchSemaphore(value: 0)
        Thread {
            defer { done.signal() }
            let fd = open(path, O_WRONLY | O_CLOEXEC)
            guard fd >= 0 else { return }
            defer { close(fd) }
            var offset = 0
            while offset < bytes.count {
                let written = bytes.withUnsafeBytes { write(fd, $0.baseAddress! + offset, $0.count - offset) }
                if written < 0 && errno == EINTR { continue }
                if written <= 0 { return }
                offset += written
            }
        }.start()
        return done
    }
}
