import Foundation
import ProcessProbe
import TestSupport
import XCTest

/// The X client tools the display tests look through (x11-utils, xdotool, imagemagick; `make test`
/// installs them): find a window and its size, screenshot it, measure how bright it is, type keys.
enum X11Tools {
    /// A top-level window as `xwininfo -root -tree` lists it.
    struct WindowInfo: Equatable {
        var id: String
        var title: String
        var width: Int
        var height: Int
    }

    /// How long one X tool may run before it is killed: ImageMagick's `import -window` was seen
    /// waiting for an X event for 12 minutes under a loaded `make test`, blocking the whole suite.
    static let toolTimeout: TimeInterval = 30

    /// Runs `tool` with `arguments` under `environment`; returns exit status and standard output.
    /// A tool still running after `timeout` seconds is killed (SIGKILL) and reported as an error.
    @discardableResult
    static func run(_ tool: String, _ arguments: [String], environment: [String: String],
                    timeout: TimeInterval = toolTimeout) throws -> (status: Int32, output: String) {
        guard let path = XvfbServer.which(tool) else { throw XvfbError("\(tool) not found: `make test` installs it") }
        let process = Process()
        let pipe = Pipe()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        process.environment = environment
        process.standardOutput = pipe
        process.standardError = FileHandle(forWritingAtPath: "/dev/null")
        try process.run()
        let pid = process.processIdentifier
        let killer = DispatchWorkItem { kill(pid, SIGKILL) }
        DispatchQueue.global().asyncAfter(deadline: .now() + timeout, execute: killer)
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        killer.cancel()
        if process.terminationReason == .uncaughtSignal && process.terminationStatus == SIGKILL {
            throw XvfbError("\(tool) \(arguments.joined(separator: " ")) did not finish within \(Int(timeout)) s: killed")
        }
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    /// The root window's children: lines like `0x200002 "title": ("res" "class")  768x576+0+0  +0+0`.
    static func topLevelWindows(on server: XvfbServer) throws -> [WindowInfo] {
        let output = try run("xwininfo", ["-root", "-children"], environment: server.environment()).output
        var windows: [WindowInfo] = []
        for line in output.split(separator: "\n") {
            let text = line.trimmingCharacters(in: .whitespaces)
            guard text.hasPrefix("0x"), let firstQuote = text.firstIndex(of: "\"") else { continue }
            let id = String(text[..<text.firstIndex(of: " ")!])
            let afterQuote = text.index(after: firstQuote)
            guard let closing = text[afterQuote...].firstIndex(of: "\"") else { continue }
            let title = String(text[afterQuote..<closing])
            // The geometry is the first token shaped WxH+X+Y after the title.
            let geometry = text[closing...].split(separator: " ").first { $0.contains("x") && $0.contains("+") && $0.first?.isNumber == true }
            guard let geometry, let size = geometry.split(separator: "+").first else { continue }
            let parts = size.split(separator: "x").compactMap { Int($0) }
            guard parts.count == 2 else { continue }
            windows.append(WindowInfo(id: id, title: title, width: parts[0], height: parts[1]))
        }
        return windows
    }

    /// How long ``waitForWindow(on:timeout:where:)`` waits by default: 20 s, 60 s under a
    /// sanitizer. `make test-asan` (2026-11-25 19:04) failed both `AudioPictureTests` window
    /// tests at 20 s, the first tests of the ASan process (full DWARF stacks on every malloc) on
    /// a machine at load 30; alone under ASan the same window took 11 s.
    static let windowTimeout: TimeInterval = ProcessProbe.underSanitizer ? 60 : 20

    /// Waits (polling every 100 ms) until a top-level window satisfying `predicate` exists.
    static func waitForWindow(on server: XvfbServer, timeout: TimeInterval = windowTimeout,
                              where predicate: (WindowInfo) -> Bool = { _ in true }) throws -> WindowInfo {
        let deadline = Date().addingTimeInterval(timeout)
        repeat {
            if let window = try topLevelWindows(on: server).first(where: predicate) { return window }
            Thread.sleep(forTimeInterval: 0.1)
        } while Date() < deadline
        throw XvfbError("no such window after \(timeout) s; windows: \(try topLevelWindows(on: server))")
    }

    /// Writes a PNG of `window` to `path`: one frame of GStreamer's `ximagesrc` (`XGetImage` of
    /// that window, no XDamage wait) through `pngenc`. ImageMagick's `import -window` grabbed the
    /// server before reading and was seen to hang until killed while the suite loaded the machine.
    static func screenshot(_ window: String, on server: XvfbServer, to path: String) throws {
        guard let xid = window.hasPrefix("0x") ? UInt64(window.dropFirst(2), radix: 16) : UInt64(window) else {
            throw XvfbError("not a window id: \(window)")
        }
        let pipeline = ["-q", "ximagesrc", "xid=\(xid)", "use-damage=false", "show-pointer=false", "num-buffers=1", "!", "videoconvert", "!", "pngenc",
                        "!", "filesink", "location=\(path)"]
        do {
            try grab(pipeline, on: server)
        } catch {
            // The grab by window id fails while `XGetImage` cannot read the window itself (seen
            // under the suite's load right after a resize): the same rectangle, read from the
            // root window (`xwininfo -id`: its absolute position and size, kept on the screen).
            let area = try screenArea(of: window, on: server)
            try screenshotScreen(x: area.x, y: area.y, width: area.width, height: area.height, on: server, to: path)
        }
    }

    /// Where `window` is on the screen (`xwininfo -id`: absolute upper-left corner, width,
    /// height), cut to the screen's size.
    static func screenArea(of window: String, on server: XvfbServer) throws -> (x: Int, y: Int, width: Int, height: Int) {
        let output = try run("xwininfo", ["-id", window], environment: server.environment()).output
        func value(_ label: String) -> Int? {
            output.split(separator: "\n").first { $0.trimmingCharacters(in: .whitespaces).hasPrefix(label) }
                .flatMap { Int($0.split(separator: ":").last?.trimmingCharacters(in: .whitespaces) ?? "") }
        }
        guard let x = value("Absolute upper-left X"), let y = value("Absolute upper-left Y"),
              let width = value("Width"), let height = value("Height") else {
            throw XvfbError("xwininfo -id \(window) gave no geometry: \(output)")
        }
        let left = max(0, x), top = max(0, y)
        let right = min(server.width, x + width), bottom = min(server.height, y + height)
        guard right > left, bottom > top else { throw XvfbError("window \(window) is off the screen (\(width)x\(height)+\(x)+\(y))") }
        return (left, top, right - left, bottom - top)
    }

    /// Runs one `ximagesrc` grab (`gst-launch-1.0 pipeline`), up to three times 200 ms apart: the
    /// grab fails (exit 1) when the window is being mapped or resized at that moment.
    private static func grab(_ pipeline: [String], on server: XvfbServer) throws {
        var status: Int32 = 0
        for attempt in 0..<3 {
            if attempt > 0 { Thread.sleep(forTimeInterval: 0.2) }
            status = try run("gst-launch-1.0", pipeline, environment: server.environment()).status
            if status == 0 { return }
        }
        throw XvfbError("ximagesrc screenshot failed three times (exit status \(status)): gst-launch-1.0 \(pipeline.joined(separator: " "))")
    }

    /// Writes a PNG of the screen's `width`×`height` area at (`x`, `y`) to `path` (`ximagesrc`'s
    /// `startx`…`endy`, inclusive corners), as ``screenshot(_:on:to:)`` does for one window.
    static func screenshotScreen(x: Int, y: Int, width: Int, height: Int, on server: XvfbServer, to path: String) throws {
        let pipeline = ["-q", "ximagesrc", "startx=\(x)", "starty=\(y)", "endx=\(x + width - 1)", "endy=\(y + height - 1)",
                        "use-damage=false", "show-pointer=false", "num-buffers=1", "!", "videoconvert", "!", "pngenc", "!", "filesink", "location=\(path)"]
        try grab(pipeline, on: server)
    }

    /// Width, height and the fraction of pixels brighter than 50 % grey in a PNG (ImageMagick
    /// `convert … -colorspace Gray -threshold 50% -format "%w %h %[fx:mean]"`). A black frame gives 0.
    /// `region` (ImageMagick geometry such as `480x16+0+0`) measures only that part.
    static func brightness(of path: String, region: String? = nil) throws -> (width: Int, height: Int, brightFraction: Double) {
        let crop = region.map { ["-crop", $0] } ?? []
        let output = try run("convert", [path] + crop + ["-colorspace", "Gray", "-threshold", "50%", "-format", "%w %h %[fx:mean]", "info:"],
                             environment: ProcessInfo.processInfo.environment).output
        let parts = output.split(separator: " ")
        guard parts.count == 3, let width = Int(parts[0]), let height = Int(parts[1]), let mean = Double(parts[2]) else {
            throw XvfbError("cannot read \(path): \(output)")
        }
        return (width, height, mean)
    }

    /// Screenshots `window` into `name` under ``screenshotDirectory`` and asserts that the picture
    /// is `width` pixels wide and not black (`black` says what a black one means); returns the
    /// screenshot's path and its bright fraction (see ``brightness(of:region:)``).
    @discardableResult
    static func assertShowsPicture(_ window: String, on server: XvfbServer, width: Int, screenshot name: String, black: String,
                                   file: StaticString = #filePath, line: UInt = #line) throws -> (path: String, brightFraction: Double) {
        let shot = screenshotDirectory.appendingPathComponent(name).path
        try screenshot(window, on: server, to: shot)
        let picture = try brightness(of: shot)
        XCTAssertEqual(picture.width, width, file: file, line: line)
        XCTAssertGreaterThan(picture.brightFraction, 0.001, "\(black): \(shot)", file: file, line: line)
        return (shot, picture.brightFraction)
    }

    /// Types `keys` (xdotool key names, e.g. "space") into `window`.
    static func type(_ keys: [String], into window: String, on server: XvfbServer) throws {
        let result = try run("xdotool", ["key", "--window", window] + keys, environment: server.environment())
        guard result.status == 0 else { throw XvfbError("xdotool failed with status \(result.status)") }
    }

    /// A directory for the screenshots, kept after the run so they can be looked at:
    /// `.build/test-results/screenshots` (not the temporary directory, which is the test process's
    /// own and removed at its exit; every test writes names of its own).
    static let screenshotDirectory: URL = {
        let url = GstplayProcess.packageRoot.appendingPathComponent(".build/test-results/screenshots")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }()
}
