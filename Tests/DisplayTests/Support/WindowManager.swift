import Foundation
import XCTest

/// A real window manager (`openbox`, Debian package `openbox`; `make test` installs it) on a
/// private ``XvfbServer``, for what only a managed desktop has: the close button's
/// `WM_DELETE_WINDOW` (`wmctrl -c`) and the EWMH `_NET_WM_STATE`. Started by ``init(on:timeout:)``,
/// which waits until the manager announces itself (`_NET_SUPPORTING_WM_CHECK` on the root
/// window, polled with `xprop`); stopped (SIGTERM, waited for) by ``stop()`` or deinit.
final class WindowManager {
    private let process = Process()

    init(on server: XvfbServer, timeout: TimeInterval = 20) throws {
        guard let openbox = XvfbServer.which("openbox") else { throw XvfbError("openbox not found: `make test` installs it") }
        process.executableURL = URL(fileURLWithPath: openbox)
        process.arguments = ["--sm-disable"]
        process.environment = server.environment()
        process.standardOutput = FileHandle(forWritingAtPath: "/dev/null")
        process.standardError = FileHandle(forWritingAtPath: "/dev/null")
        try process.run()
        let deadline = Date().addingTimeInterval(timeout)
        repeat {
            let check = try X11Tools.run("xprop", ["-root", "_NET_SUPPORTING_WM_CHECK"], environment: server.environment())
            if check.output.contains("window id") { return }
            Thread.sleep(forTimeInterval: 0.1)
        } while Date() < deadline && process.isRunning
        stop()
        throw XvfbError("openbox did not come up within \(timeout) s")
    }

    /// Stops the manager and waits for it; idempotent.
    func stop() {
        guard process.isRunning else { return }
        process.terminate()
        process.waitUntilExit()
    }

    deinit { stop() }
}

extension X11Tools {
    /// Waits (polling every 100 ms) for a window the window manager manages whose title satisfies
    /// `predicate` (`wmctrl -l`: lines like `0x00400002  0 host title`); returns its id and title.
    static func waitForManagedWindow(on server: XvfbServer, timeout: TimeInterval = 20,
                                     where predicate: (String) -> Bool) throws -> (id: String, title: String) {
        let deadline = Date().addingTimeInterval(timeout)
        var last = ""
        repeat {
            last = try run("wmctrl", ["-l"], environment: server.environment()).output
            for line in last.split(separator: "\n") {
                let fields = line.split(separator: " ", maxSplits: 3, omittingEmptySubsequences: true)
                guard fields.count == 4, predicate(String(fields[3])) else { continue }
                return (String(fields[0]), String(fields[3]))
            }
            Thread.sleep(forTimeInterval: 0.1)
        } while Date() < deadline
        throw XvfbError("no such managed window after \(timeout) s; wmctrl -l: \(last)")
    }
}
