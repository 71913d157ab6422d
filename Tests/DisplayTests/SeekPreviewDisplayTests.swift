import BackendOSD
import Foundation
import TestSupport
import XCTest

/// The OSD's seek preview in the window (Xvfb, xdotool, ImageMagick): on `colour-steps-4s.webm`
/// (red, green, blue, white for a second each) the picture above the bar shows the target's
/// colour — blue over a red picture when the pointer hovers the bar at 60 % — with its dark border;
/// a key seek shows it too, and `--osd-seek-preview=no` draws none.
final class SeekPreviewDisplayTests: XCTestCase {
    private static let media = GstplayProcess.fixture("colour-steps-4s.webm")
    /// The fixture's frame size: the overlay's pixels (the window shows it 1:1 without a window manager).
    private static let layout = SeekPreviewLayout(frameWidth: 320, frameHeight: 240)
    private typealias RGB = PictureColours.RGB
    private static let red = RGB(r: 255, g: 0, b: 0), blue = RGB(r: 0, g: 0, b: 255)

    /// Paused on red, the pointer over the bottom strip at 60 % (2.4 s): a blue picture with a
    /// dark border above the bar while the picture around stays red; moved up, it goes.
    func testHoveringTheBarShowsThePictureOfThatTime() throws {
        let (server, gstplay, window) = try start([])
        defer { gstplay.send("quit"); _ = gstplay.waitForExit(timeout: 15) }
        let x = 190, fraction = Double(x - Self.layout.bar.x) / Double(Self.layout.bar.width)
        var wiggle = 0
        let shot = try firstShot(named: "seek-preview-hover.png", in: window, on: server, before: {
            wiggle ^= 1   // a motion each time keeps the preview up; the first starts the track
            _ = try X11Tools.run("xdotool", ["mousemove", "--window", window, "\(x + wiggle)", "232"], environment: server.environment())
        }) { try self.preview(in: $0, at: fraction, shows: Self.blue, over: Self.red) }
        XCTAssertNotNil(shot, "no blue preview above the bar (last shots in \(X11Tools.screenshotDirectory.path))")

        _ = try X11Tools.run("xdotool", ["mousemove", "--window", window, "160", "100"], environment: server.environment())
        let gone = try firstShot(named: "seek-preview-hover-gone.png", in: window, on: server) {
            try self.regionColour($0, Self.inner(Self.layout.picture(width: 120, height: 90, fraction: fraction))).isClose(to: Self.red, tolerance: 60)
        }
        XCTAssertNotNil(gone, "the preview stayed after the pointer left the bar")
    }

    /// A seek key (RIGHT bound to `seek +2` in a temporary input.conf) from 0.2 s: the preview
    /// at 2.2 s is blue, has its dark border and the bar is filled to 55 %.
    func testASeekKeyShowsThePreviewAboveTheBar() throws {
        let (server, gstplay, window) = try start(["--input-conf", try inputConf()])
        defer { gstplay.send("quit"); _ = gstplay.waitForExit(timeout: 15) }
        try X11Tools.type(["Right"], into: window, on: server)
        let fraction = 2.2 / 4
        let shot = try firstShot(named: "seek-preview-key.png", in: window, on: server, burst: true) {
            let fill = try self.regionColour($0, .init(x: Self.layout.bar.x + 20, y: Self.layout.bar.y + 1, width: 40, height: 3))
            return try self.preview(in: $0, at: fraction, shows: Self.blue, over: nil) && fill.r > 200 && fill.g > 150 && fill.b < 130
        }
        XCTAssertNotNil(shot, "no preview after the key seek (shots in \(X11Tools.screenshotDirectory.path))")
    }

    /// `--osd-seek-preview=no`: the same key seek draws no border (the OSD text still shows).
    func testTheOptionTurnsThePreviewOff() throws {
        let (server, gstplay, window) = try start(["--osd-seek-preview=no", "--input-conf", try inputConf()])
        defer { gstplay.send("quit"); _ = gstplay.waitForExit(timeout: 15) }
        let mark = gstplay.stdoutLines.count
        try X11Tools.type(["Right"], into: window, on: server)
        XCTAssertNotNil(gstplay.waitForJSON(after: mark, timeout: 15) { $0["event"] as? String == "seek-done" })
        for index in 0..<5 {
            let path = X11Tools.screenshotDirectory.appendingPathComponent("seek-preview-off.\(index).png").path
            try X11Tools.screenshot(window, on: server, to: path)
            XCTAssertFalse(try preview(in: path, at: 2.2 / 4, shows: Self.blue, over: nil), "a preview although turned off: \(path)")
        }
    }

    // MARK: - Helpers

    /// gstplay on the fixture under a new Xvfb, paused at 0.2 s (red) and the pause drawn.
    private func start(_ arguments: [String]) throws -> (XvfbServer, GstplayProcess, String) {
        let server = try XvfbServer(width: 800, height: 600)
        let gstplay = try GstplayProcess(["--json", "--keep-open"] + arguments + [Self.media], environment: server.environment()).started()
        XCTAssertNotNil(gstplay.waitForJSON(timeout: 20) { $0["event"] as? String == "position" && ($0["position"] as? Double ?? 0) > 0.1 })
        let window = try X11Tools.waitForWindow(on: server) { $0.title == "colour-steps-4s.webm" }
        gstplay.send("pause")
        gstplay.send("seek 0.2")
        XCTAssertNotNil(gstplay.waitForJSON(timeout: 15) { $0["event"] as? String == "seek-done" })
        XCTAssertEqual(window.width, 320, "the window is the video's size")
        return (server, gstplay, window.id)
    }

    /// A temporary input.conf binding RIGHT to `seek +2`.
    private func inputConf() throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("seek-preview-\(UUID().uuidString.prefix(8)).conf").path
        try "RIGHT seek +2\n".write(toFile: path, atomically: true, encoding: .utf8)
        addTeardownBlock { try? FileManager.default.removeItem(atPath: path) }
        return path
    }

    /// The picture at `fraction` is `colour` inside, its border dark, and (with `video`) the
    /// picture beside it `video`.
    private func preview(in path: String, at fraction: Double, shows colour: RGB, over video: RGB?) throws -> Bool {
        let place = Self.layout.picture(width: 120, height: 90, fraction: fraction)
        let inside = try regionColour(path, Self.inner(place))
        let border = try regionColour(path, .init(x: place.x + place.width / 4, y: place.y - Self.layout.borderWidth + 1,
                                                  width: place.width / 2, height: Self.layout.borderWidth - 2))
        let beside = try video.map { _ in try regionColour(path, .init(x: 16, y: 100, width: 60, height: 40)) }
        print("preview at \(fraction): inside \(inside), border \(border), beside \(beside.map(\.description) ?? "-"): \(path)")
        return inside.isClose(to: colour, tolerance: 60) && max(border.r, border.g, border.b) < 80
            && (video.map { beside?.isClose(to: $0, tolerance: 60) ?? false } ?? true)
    }

    /// The middle half of `rect` (the picture's own time is written top left).
    private static func inner(_ rect: SeekPreviewLayout.Rect) -> SeekPreviewLayout.Rect {
        let (x, y) = (rect.x + rect.width / 4, rect.y + rect.height / 2)
        return SeekPreviewLayout.Rect(x: x, y: y, width: rect.width / 2, height: rect.height / 3)
    }

    private func regionColour(_ path: String, _ rect: SeekPreviewLayout.Rect) throws -> RGB {
        let (w, h) = (Double(Self.layout.frameWidth), Double(Self.layout.frameHeight))
        return try PictureColours.meanColour(of: path, x: Double(rect.x) / w, y: Double(rect.y) / h,
                                             width: Double(rect.width) / w, height: Double(rect.height) / h)
    }

    /// Screenshots (after `before`, each time) until `check` holds, for up to 40 shots or 20 s;
    /// the shot that passed is copied to `name` (nil: none passed). `burst`: the shots are all
    /// taken first (`import` only, for 6 s) and checked after, so slow checks on a loaded machine
    /// cannot miss a preview that shows for 1.5 s.
    private func firstShot(named name: String, in window: String, on server: XvfbServer, burst: Bool = false,
                           before: () throws -> Void = {}, _ check: (String) throws -> Bool) throws -> String? {
        let path = X11Tools.screenshotDirectory.appendingPathComponent(name).path
        let deadline = Date().addingTimeInterval(burst ? 6 : 20)
        var taken: [String] = []
        func passed(_ shot: String) throws -> Bool {
            guard try check(shot) else { return false }
            try? FileManager.default.removeItem(atPath: path)
            try FileManager.default.copyItem(atPath: shot, toPath: path)
            return true
        }
        for index in 0..<40 where index == 0 || Date() < deadline {
            try before()
            let shot = path + ".\(index).png"
            try X11Tools.screenshot(window, on: server, to: shot)
            taken.append(shot)
            if !burst, try passed(shot) { return path }
        }
        for shot in taken where burst { if try passed(shot) { return path } }
        return nil
    }
}
