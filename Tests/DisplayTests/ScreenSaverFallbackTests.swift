import CX11
import Foundation
import TestSupport
import XCTest

/// Without a session bus, gstplay suspends the X server's own screen saver
/// (`XScreenSaverSuspend`) while video plays and resumes it on pause. The server's saver is set
/// to start after 1 s idle (`XSetScreenSaver`); `XScreenSaverQueryInfo` then says whether it is
/// on (Xvfb does not report a suspension itself, only its effect).
final class ScreenSaverFallbackTests: XCTestCase {
    func testWithoutABusTheXScreenSaverIsSuspendedWhileVideoPlays() throws {
        let server = try XvfbServer(width: 640, height: 480)
        var environment = server.environment()
        environment.removeValue(forKey: "DBUS_SESSION_BUS_ADDRESS")   // and the test's own XDG_RUNTIME_DIR has no bus socket
        let gstplay = try GstplayProcess(["--json", "--audio-sink", "fakeaudiosink", DisplayMedia.h264], environment: environment).started()
        XCTAssertNotNil(gstplay.waitForJSON(timeout: 20) { $0["event"] as? String == "state" && $0["to"] as? String == "playing" }, gstplay.stdout)
        XCTAssertTrue(withDisplayConnection(server) { XSetScreenSaver($0, 1, 1, DontPreferBlanking, AllowExposures) } != nil)
        XCTAssertTrue(waitForState(Int32(ScreenSaverOff), on: server), "the saver is on while video plays")
        XCTAssertFalse(waitForState(Int32(ScreenSaverOn), on: server, timeout: 2.2), "the saver started while video plays (1 s idle timeout)")
        gstplay.send("pause")
        XCTAssertTrue(waitForState(Int32(ScreenSaverOn), on: server, timeout: 4), "the saver stays suspended while paused")
        gstplay.send("quit")
        XCTAssertEqual(gstplay.waitForExit(timeout: 15), 0, gstplay.stderr)
    }

    /// Runs `body` on a connection of the test's own (`XOpenDisplay`, `XSync`, `XCloseDisplay`).
    private func withDisplayConnection<T>(_ server: XvfbServer, _ body: (OpaquePointer) -> T) -> T? {
        guard let display = XOpenDisplay(server.display) else { return nil }
        defer { XSync(display, 0); XCloseDisplay(display) }
        return body(display)
    }

    /// `XScreenSaverQueryInfo`'s state over a connection of the test's own.
    private func screenSaverState(on server: XvfbServer) -> Int32? {
        withDisplayConnection(server) { display -> Int32? in
            guard let info = XScreenSaverAllocInfo() else { return nil }
            defer { XFree(info) }
            guard XScreenSaverQueryInfo(display, CX11_root_window(display, CX11_default_screen(display)), info) != 0 else { return nil }
            return info.pointee.state
        } ?? nil
    }

    private func waitForState(_ state: Int32, on server: XvfbServer, timeout: TimeInterval = 5) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        repeat {
            if screenSaverState(on: server) == state { return true }
            Thread.sleep(forTimeInterval: 0.05)
        } while Date() < deadline
        return false
    }
}
