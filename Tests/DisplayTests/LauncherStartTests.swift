import Foundation
import TestSupport
import XCTest

/// Started as a desktop launcher starts it — no terminal, stdin from
/// /dev/null, no `XDG_RUNTIME_DIR`, on an X server that resets whenever its last client leaves
/// (no `-noreset`) — gstplay picks the same sink every time (one start in two picked
/// `glimagesink`: the server reset between two probes and refused `ximagesink`), and the GL
/// sink's libwayland warning about `XDG_RUNTIME_DIR` never reaches the user.
final class LauncherStartTests: XCTestCase {
    private func launcherEnvironment(_ server: XvfbServer, _ extra: [String: String] = [:]) -> [String: String] {
        var environment = server.environment(extra)
        environment.removeValue(forKey: "XDG_RUNTIME_DIR")
        return environment
    }

    func testLauncherStyleRunsPickTheSameSink() throws {
        let server = try XvfbServer(width: 640, height: 480, resetsWhenIdle: true)
        var sinks: [String] = []
        for _ in 0..<10 {
            let gstplay = try GstplayProcess(["--json", "--audio-sink", "fakeaudiosink", DisplayMedia.path("short-0.2s.mp4")],
                                             input: .devNull, environment: launcherEnvironment(server)).started()
            XCTAssertEqual(gstplay.waitForExit(timeout: 20), 0, "stdout:\n\(gstplay.stdout)\nstderr:\n\(gstplay.stderr)")
            sinks.append(gstplay.jsonLines.first { $0["event"] as? String == "sinks" }?["video"] as? String ?? "none")
            XCTAssertFalse(gstplay.stderr.contains("XDG_RUNTIME_DIR"), gstplay.stderr)
        }
        XCTAssertEqual(sinks, Array(repeating: "ximagesink", count: 10))
    }

    func testTheGLSinkSaysNothingAboutXDGRuntimeDir() throws {
        let server = try XvfbServer(width: 640, height: 480)
        let gstplay = try GstplayProcess(["--json", "--audio-sink", "fakeaudiosink", DisplayMedia.path("short-0.2s.mp4")], input: .devNull,
                                         environment: launcherEnvironment(server, ["GST_PLUGIN_FEATURE_RANK": "ximagesink:NONE"])).started()
        XCTAssertEqual(gstplay.waitForExit(timeout: 20), 0, "stdout:\n\(gstplay.stdout)\nstderr:\n\(gstplay.stderr)")
        XCTAssertEqual(gstplay.jsonLines.first { $0["event"] as? String == "sinks" }?["video"] as? String, "glimagesink", gstplay.stdout)
        XCTAssertFalse(gstplay.stderr.contains("XDG_RUNTIME_DIR"), gstplay.stderr)
        XCTAssertEqual(gstplay.stderr, "", "a launcher's user sees nothing on stderr")
    }
}
