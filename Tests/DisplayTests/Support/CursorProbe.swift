import CX11
import CXFixes
import Foundation

/// The pointer as the X server shows it now, read over a connection of the test's own (X Fixes
/// `XFixesGetCursorImage`: the image of the cursor at the pointer, whatever window set it).
enum CursorProbe {
    /// Whether the cursor shown now is invisible (every ARGB pixel fully transparent); nil when
    /// the server or the extension does not answer.
    static func isHidden(on server: XvfbServer) -> Bool? {
        guard let display = XOpenDisplay(server.display) else { return nil }
        defer { XCloseDisplay(display) }
        var event: Int32 = 0, error: Int32 = 0, major: Int32 = 4, minor: Int32 = 0
        guard XFixesQueryExtension(display, &event, &error) != 0, XFixesQueryVersion(display, &major, &minor) != 0,
              let image = XFixesGetCursorImage(display) else { return nil }
        defer { XFree(image) }
        let count = Int(image.pointee.width) * Int(image.pointee.height)
        let pixels = UnsafeBufferPointer(start: image.pointee.pixels, count: count)
        return pixels.allSatisfy { ($0 >> 24) & 0xFF == 0 }
    }

    /// Polls (every 50 ms, up to `timeout` s) until ``isHidden(on:)`` is `hidden`; returns whether it was.
    static func wait(hidden: Bool, on server: XvfbServer, timeout: TimeInterval) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        repeat {
            if isHidden(on: server) == hidden { return true }
            Thread.sleep(forTimeInterval: 0.05)
        } while Date() < deadline
        return false
    }
}
