import Foundation
import TestSupport
import XCTest

/// While video plays gstplay holds the screensaver off through
/// `org.freedesktop.ScreenSaver.Inhibit` on the session bus, and lets go (`UnInhibit` with the
/// cookie it got) on pause and on exit — checked on a private `dbus-daemon` with a service
/// that answers and records the calls (``ScreenSaverService``).
final class ScreenSaverTests: XCTestCase {
    func testPlayingVideoInhibitsAndPauseAndExitUninhibit() throws {
        let bus = try PrivateSessionBus()
        let service = try ScreenSaverService(address: bus.address)
        let server = try XvfbServer(width: 640, height: 480)
        let gstplay = try GstplayProcess(["--json", "--audio-sink", "fakeaudiosink", DisplayMedia.h264],
                                         environment: server.environment(["DBUS_SESSION_BUS_ADDRESS": bus.address])).started()
        XCTAssertNotNil(gstplay.waitForJSON(timeout: 20) { $0["event"] as? String == "state" && $0["to"] as? String == "playing" }, gstplay.stdout)
        XCTAssertEqual(service.waitForCalls(1), ["Inhibit gstplay Playing video -> 42"])

        gstplay.send("pause")
        XCTAssertEqual(service.waitForCalls(2).last, "UnInhibit 42")
        gstplay.send("play")
        XCTAssertEqual(service.waitForCalls(3).last, "Inhibit gstplay Playing video -> 43")
        gstplay.send("quit")
        XCTAssertEqual(gstplay.waitForExit(timeout: 15), 0, gstplay.stderr)
        XCTAssertEqual(service.waitForCalls(4).last, "UnInhibit 43", "not released at exit")
        XCTAssertEqual(service.calls.count, 4, "\(service.calls)")
    }

    func testAudioOnlyDoesNotInhibit() throws {
        let bus = try PrivateSessionBus()
        let service = try ScreenSaverService(address: bus.address)
        let server = try XvfbServer(width: 640, height: 480)
        let gstplay = try GstplayProcess(["--json", "--audio-sink", "fakeaudiosink", DisplayMedia.path("audio-only-4s.ogg")],
                                         environment: server.environment(["DBUS_SESSION_BUS_ADDRESS": bus.address])).started()
        XCTAssertNotNil(gstplay.waitForJSON(timeout: 20) { $0["event"] as? String == "position" && ($0["position"] as? Double ?? 0) >= 0.5 }, gstplay.stdout)
        gstplay.send("quit")
        XCTAssertEqual(gstplay.waitForExit(timeout: 15), 0, gstplay.stderr)
        XCTAssertEqual(service.calls, [], "audio alone keeps the screensaver")
    }
}
