import CGStreamer
import Glibc

/// A local FIFO (named pipe) as the media: opened here with `O_NONBLOCK`, which returns at once
/// whether or not a writer exists, and handed to `playbin` as `fd://N` (`fdsrc`, which waits for
/// data in `gst_poll_wait`, interruptible by a state change). `filesrc` would open it blocking,
/// inside `gst_element_set_state`, on the loop thread: with no writer the loop thread would never come
/// back. Nothing waits in `open()`, so nothing is left to cancel at shutdown.
///
/// **Thread:** the loop thread (owned by ``Engine``). The descriptor is closed by ``release()``
/// once `playbin` no longer reads it (READY or NULL: the next load, stop, teardown); after a
/// gapless hand-over from a FIFO to the next item it stays open until then. A FIFO is never
/// handed over gaplessly itself (the queue feature checks ``isRegularFile(_:)``).
package final class FIFOSource {
    /// The open FIFO `playbin` reads, if the current media is one.
    private(set) var descriptor: Int32?

    /// The URI `playbin` should read for `uri`: `fd://N` for a `file://` URI naming a FIFO
    /// (`stat`, then `open(O_RDONLY | O_NONBLOCK)`), else `uri` itself. Releases the previous FIFO.
    func playURI(for uri: String) -> String {
        release()
        guard let path = FileURI.path(of: uri), Self.isFIFO(path) else { return uri }
        let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { return uri }       // filesrc reports why, as for any unreadable file
        descriptor = fd
        return "fd://\(fd)"
    }

    /// Closes the FIFO of the previous media (call with the pipeline at READY or NULL). Idempotent.
    func release() {
        guard let fd = descriptor else { return }
        close(fd)
        descriptor = nil
    }

    /// True when `path` is a FIFO (`stat`, `S_ISFIFO`).
    static func isFIFO(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFIFO
    }

    /// True when `path` is a regular file (`stat`, `S_ISREG`).
    package static func isRegularFile(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG
    }
}
