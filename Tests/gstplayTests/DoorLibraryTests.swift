import Foundation
import ProcessProbe
import TestSupport
import XCTest

/// The door libraries (docs/ADR-004-door-libraries.md): libsoup, GUPnP and its stack (GSSDP,
/// GUPnP-AV, libxml2, ICU, Kerberos through libsoup), Xlib and libgstnet are not linked; the first call of one
/// of their functions opens the library. A headless play maps none of them; the door that needs
/// one maps it and works; a library missing when its door opens is one `gstplay:` line and exit 8.
final class DoorLibraryTests: XCTestCase {
    /// The file names in /proc/PID/maps that a headless local play must not show.
    private static let doorLibraries = ["libgupnp-1.6", "libgupnp-av", "libgssdp", "libxml2", "libicu",
                                        "libkrb5", "libgssapi", "libX11", "libXss", "libXfixes", "libsoup", "libgstnet"]

    /// fakesink for both streams, and no display: the play needs no window.
    private let sinks = ["--video-sink", "fakesink", "--audio-sink", "fakesink"]
    private var headless: [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment["DISPLAY"] = nil
        environment["WAYLAND_DISPLAY"] = nil
        return environment
    }

    /// The door libraries among the files `pid` maps now.
    private func mappedDoorLibraries(_ pid: Int32) throws -> [String] {
        let maps = try XCTUnwrap(ProcFS.read("/proc/\(pid)/maps"), "no /proc/\(pid)/maps")
        let files = Set(maps.split(separator: "\n").compactMap { line in
            line.split(separator: " ", omittingEmptySubsequences: true).last.map(String.init)
        }.filter { $0.hasPrefix("/") })
        return files.filter { file in
            let name = (file as NSString).lastPathComponent
            return Self.doorLibraries.contains { name.hasPrefix($0) }
        }.sorted()
    }

    /// VP8 and Opus: decoded by libvpx and libopus. (H.264 through gst-libav would map libxml2 and
    /// ICU by itself: libavformat links them, for gst-play-1.0 as for gstplay.)
    func testHeadlessLocalPlayMapsNoDoorLibrary() throws {
        let child = try GstplayProcess(["--json", "--loop"] + sinks + [TestMedia.vp8], environment: headless).started()
        defer {
            child.process.terminate()
            _ = child.waitForExit()   // not left for LeakSanitizer's whole-process check with its child
        }
        XCTAssertTrue(child.waitForLine(containing: #""to":"playing""#), child.stdout + child.stderr)
        XCTAssertTrue(child.waitFor { out, _ in out.contains(#""event":"position""#) }, child.stdout)
        XCTAssertEqual(try mappedDoorLibraries(child.process.processIdentifier), [])
    }

    func testTheWebRemoteOpensLibsoupAndWorks() throws {
        VenvScript.assertInstalled()
        let session = try RemoteSession(["--remote=0", "--loop"] + sinks + [TestMedia.vp8], environment: headless)
        defer { session.stop() }
        XCTAssertTrue(session.child.waitForLine(containing: #""to":"playing""#), session.child.stdout)
        let status = session.client(["http", "GET", session.base + "/api/status", "--token", session.token]).json
        XCTAssertEqual(status?["status"] as? Int, 200, "\(status ?? [:])")
        let mapped = try mappedDoorLibraries(session.child.process.processIdentifier)
        XCTAssertTrue(mapped.contains { $0.contains("libsoup-3.0.so") }, "\(mapped)")
        XCTAssertFalse(mapped.contains { $0.contains("libgupnp") || $0.contains("libX11") }, "\(mapped)")
    }

    func testAMissingDoorLibraryIsOneLineAndExitEight() throws {
        // A file by the library's soname that is no library, found first through LD_LIBRARY_PATH.
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("door-broken-\(getpid())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try Data("not a library\n".utf8).write(to: directory.appendingPathComponent("libsoup-3.0.so.0"))
        var environment = headless
        environment["LD_LIBRARY_PATH"] = directory.path

        // Without the door, the broken library is never opened: the play ends normally.
        let local = try GstplayProcess.run(["--quiet"] + sinks + [GstplayProcess.fixture("short-0.2s.mp4")], environment: environment)
        XCTAssertEqual(local.status, 0, local.stderr)

        let remote = try GstplayProcess.run(["--remote=0"] + sinks + [TestMedia.vp8], environment: environment)
        XCTAssertEqual(remote.status, 8, remote.stderr)
        let lines = GstplayProcess.completeLines(remote.stderr).filter { $0.hasPrefix("gstplay: ") && !$0.contains("#token=") }
        XCTAssertEqual(lines.count, 1, remote.stderr)
        XCTAssertTrue(lines.first?.hasPrefix("gstplay: the web remote, casting or the media cache's revalidation needs libsoup-3.0 (apt install libsoup-3.0-0): ") == true,
                      remote.stderr)
    }
}
