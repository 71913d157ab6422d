import Foundation
import TestSupport
import XCTest

/// The desktop entry: what `make install` writes, and gstplay started the way a
/// file manager starts it — the entry's `Exec` line with `%U` expanded, no terminal, stdin empty —
/// on a private X server and a private session bus.
final class DesktopEntryLaunchTests: XCTestCase {
    private static let desktopSources = GstplayProcess.packageRoot.appendingPathComponent("Sources/gstplay/Desktop")

    private func temporaryDirectory() throws -> URL {
        let url = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("desktop-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// The entry as `make install` makes it (desktop-entry.sh with the built gstplay), in `directory`.
    private func makeEntry(in directory: URL) throws -> URL {
        let entry = directory.appendingPathComponent("gstplay.desktop")
        let script = GstplayProcess.tool(Self.desktopSources.appendingPathComponent("desktop-entry.sh").path,
                                         [GstplayProcess.binary.path, Self.desktopSources.appendingPathComponent("gstplay.desktop.in").path],
                                         input: .devNull)
        try script.start()
        XCTAssertEqual(script.waitForExit(), 0, script.stderr)
        try Data(script.stdout.utf8).write(to: entry)
        return entry
    }

    /// The value of `key` in the entry's `[Desktop Entry]` group.
    private func value(_ key: String, in entry: URL) throws -> String? {
        try String(contentsOf: entry, encoding: .utf8).split(separator: "\n")
            .first { $0.hasPrefix("\(key)=") }.map { String($0.dropFirst(key.count + 1)) }
    }

    /// `make install-desktop` / `make uninstall-desktop` (the parts of `make install` /
    /// `make uninstall`) with DESTDIR: a valid entry (desktop-file-validate), the MimeType the
    /// plugins can demux, an icon that renders (rsvgdec: a white play sign on blue, transparent
    /// corners); uninstall removes both.
    func testMakeInstallWritesAValidEntryAndIconAndUninstallRemovesThem() throws {
        let stage = try temporaryDirectory()
        var environment = ProcessInfo.processInfo.environment
        environment["DESKTOP_GSTPLAY"] = GstplayProcess.binary.path
        let make = ["-C", GstplayProcess.packageRoot.path, "-o", "release", "DESTDIR=\(stage.path)", "PREFIX=/usr"]
        let install = try GstplayProcess.tool("make", make + ["install-desktop"], environment: environment, input: .devNull).started()
        XCTAssertEqual(install.waitForExit(timeout: 60), 0, install.stderr)
        let entry = stage.appendingPathComponent("usr/share/applications/gstplay.desktop")
        let icon = stage.appendingPathComponent("usr/share/icons/hicolor/scalable/apps/gstplay.svg")

        let validate = try GstplayProcess.tool("desktop-file-validate", [entry.path], input: .devNull).started()
        XCTAssertEqual(validate.waitForExit(), 0, validate.stdout + validate.stderr)
        XCTAssertEqual(try value("Exec", in: entry), "gstplay %U")
        XCTAssertEqual(try value("Terminal", in: entry), "false")
        XCTAssertEqual(try value("Icon", in: entry), "gstplay")
        let types = try XCTUnwrap(value("MimeType", in: entry)).split(separator: ";").map(String.init)
        for type in ["video/mp4", "video/webm", "video/x-matroska", "audio/ogg", "audio/flac", "audio/mpeg"] {
            XCTAssertTrue(types.contains(type), "\(type) missing from \(types)")
        }
        let hasASF = try GstplayProcess.tool("gst-inspect-1.0", ["--exists", "asfdemux"], input: .devNull).started().waitForExit() == 0
        XCTAssertEqual(types.contains("video/x-ms-asf"), hasASF, "video/x-ms-asf listed only when asfdemux is installed")

        let pixels = try renderIcon(icon, size: 128)
        func pixel(_ x: Int, _ y: Int) -> [UInt8] { Array(pixels[(y * 128 + x) * 4 ..< (y * 128 + x) * 4 + 4]) }
        XCTAssertEqual(pixel(64, 64), [255, 255, 255, 255], "the play sign is white")
        XCTAssertEqual(pixel(1, 1)[3], 0, "the corner is transparent")
        let face = pixel(24, 64)
        XCTAssertTrue(face[2] > 150 && face[0] < 100 && face[3] == 255, "the face is opaque blue: \(face)")

        let uninstall = try GstplayProcess.tool("make", make + ["uninstall-desktop"], environment: environment, input: .devNull).started()
        XCTAssertEqual(uninstall.waitForExit(timeout: 60), 0, uninstall.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: entry.path))
        XCTAssertFalse(FileManager.default.fileExists(atPath: icon.path))
    }

    /// The SVG rendered by GStreamer's `rsvgdec` as RGBA bytes, `size`×`size`.
    private func renderIcon(_ icon: URL, size: Int) throws -> Data {
        let raw = try temporaryDirectory().appendingPathComponent("icon.rgba")
        let launch = try GstplayProcess.tool("gst-launch-1.0", ["-q", "filesrc", "location=\(icon.path)", "!", "rsvgdec", "!",
                                                                "videoconvert", "!", "video/x-raw,format=RGBA", "!",
                                                                "filesink", "location=\(raw.path)"], input: .devNull).started()
        XCTAssertEqual(launch.waitForExit(), 0, launch.stderr)
        let data = try Data(contentsOf: raw)
        XCTAssertEqual(data.count, size * size * 4)
        return data
    }

    /// Started as a file manager starts it: the entry's Exec line with `%U` replaced by the file's
    /// URI (Desktop Entry Specification), `gstplay` found on PATH, stdin /dev/null, no terminal.
    /// The video shows in the window, MPRIS is on (a window, a session bus), space typed into the
    /// window pauses and resumes, and gstplay exits 0 at the end.
    func testStartedAsAFileManagerStartsItItPlaysInTheWindowTakesKeysAndExitsAtTheEnd() throws {
        let server = try XvfbServer(width: 1024, height: 768)
        let bus = try SessionBus()
        let entry = try makeEntry(in: try temporaryDirectory())
        let media = URL(fileURLWithPath: DisplayMedia.path("colour-steps-4s.webm"))
        let exec = try XCTUnwrap(value("Exec", in: entry)).split(separator: " ").map(String.init)
        let command = exec.flatMap { $0 == "%U" ? [media.absoluteString] : [$0] }
        XCTAssertEqual(command, ["gstplay", media.absoluteString])

        var environment = bus.environment(server.environment())
        environment["PATH"] = GstplayProcess.binary.deletingLastPathComponent().path + ":" + (environment["PATH"] ?? "/usr/bin:/bin")
        let gstplay = try GstplayProcess.tool("/usr/bin/env", command, environment: environment, input: .devNull).started()
        defer { if gstplay.process.isRunning { kill(gstplay.process.processIdentifier, SIGKILL) } }

        let window: X11Tools.WindowInfo
        do {
            window = try X11Tools.waitForWindow(on: server) { $0.title == "colour-steps-4s.webm" }
        } catch {
            return XCTFail("\(error); gstplay stdout:\n\(gstplay.stdout)\nstderr:\n\(gstplay.stderr)")
        }
        XCTAssertTrue(eventually(timeout: .seconds(10), interval: .milliseconds(100)) {
            bus.playerctl("-p", "gstplay", "status") == "Playing"
        }, "MPRIS is on by default with a window: \(gstplay.stderr)")
        _ = try X11Tools.assertShowsPicture(window.id, on: server, width: window.width, screenshot: "gstplay-launcher.png",
                                            black: "the window shows no picture")

        try X11Tools.type(["space"], into: window.id, on: server)
        XCTAssertTrue(eventually(timeout: .seconds(5), interval: .milliseconds(50)) { bus.playerctl("-p", "gstplay", "status") == "Paused" },
                      "space in the window did not pause")
        try X11Tools.type(["space"], into: window.id, on: server)
        XCTAssertTrue(eventually(timeout: .seconds(5), interval: .milliseconds(50)) { bus.playerctl("-p", "gstplay", "status") == "Playing" },
                      "space in the window did not resume")
        XCTAssertEqual(gstplay.waitForExit(timeout: 15), 0, "stdout:\n\(gstplay.stdout)\nstderr:\n\(gstplay.stderr)")
    }
}
