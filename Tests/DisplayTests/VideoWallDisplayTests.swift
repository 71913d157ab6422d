import Foundation
import TestSupport
import XCTest

/// `--wall 2x1:0,0` and `--wall 2x1:1,0`: two gstplay windows on one private X server, each
/// showing its half of a picture of colour bars (SMPTE 75 %: white, yellow, cyan, green, magenta,
/// red, blue from left to right), placed side by side. The left window's middle is yellow (bar 2
/// of 7), the right one's red (bar 6); each window is half the picture wide. The screenshot of
/// both is kept as docs/wall-2x1.png when `GSTPLAY_WALL_PICTURE` names a path (the README's picture).
final class VideoWallDisplayTests: XCTestCase {
    func testTwoTilesShowTheirHalvesSideBySide() throws {
        let clip = try Self.makeColourBars()
        let server = try XvfbServer(width: 800, height: 480)
        var players: [GstplayProcess] = []
        var placed: [String] = []
        defer {
            // Each player ends before the X server does (a child left running holds its
            // `GstplayProcess` and pipes: LeakSanitizer's whole-process check counts them).
            for player in players { player.send("quit") }
            for player in players { _ = player.waitForExit(timeout: 20) }
        }
        for tile in ["2x1:0,0", "2x1:1,0"] {
            players.append(try GstplayProcess(["--quiet", "--keep-open", "--no-audio", "--video-sink", "ximagesink", "--wall", tile, clip],
                                              environment: server.environment()).started())
            // One window at a time, so the first found is the left tile's.
            let window = try X11Tools.waitForWindow(on: server) { window in window.title == "wall-bars.webm" && !placed.contains(window.id) }
            XCTAssertEqual(window.width, 320, "half of the 640-pixel picture")
            XCTAssertEqual(window.height, 360)
            try X11Tools.run("xdotool", ["windowmove", window.id, placed.isEmpty ? "40" : "364", "60"], environment: server.environment())
            placed.append(window.id)
        }
        // The picture in both (a still: the clip's frames are all the same), once drawn after the move.
        let shot = X11Tools.screenshotDirectory.appendingPathComponent("wall-2x1.png").path
        var left = PictureColours.RGB(r: 0, g: 0, b: 0), right = left
        let drawn = eventually(timeout: .seconds(30), interval: .milliseconds(300)) {
            guard (try? X11Tools.screenshotScreen(x: 22, y: 40, width: 680, height: 400, on: server, to: shot)) != nil,
                  let l = try? PictureColours.meanColour(of: shot, x: 0.2, y: 0.4, width: 0.06, height: 0.2),
                  let r = try? PictureColours.meanColour(of: shot, x: 0.72, y: 0.4, width: 0.06, height: 0.2) else { return false }
            (left, right) = (l, r)
            return Self.yellow.isClose(to: l, tolerance: 40) && Self.red.isClose(to: r, tolerance: 40)
        }
        XCTAssertTrue(drawn, "left tile \(left) (want yellow \(Self.yellow)), right tile \(right) (want red \(Self.red)); \(shot)")
        if let picture = ProcessInfo.processInfo.environment["GSTPLAY_WALL_PICTURE"] {
            try? FileManager.default.removeItem(atPath: picture)
            try FileManager.default.copyItem(atPath: shot, toPath: picture)
        }
    }

    /// 75 % yellow and red as `videotestsrc pattern=smpte75` draws them.
    private static let yellow = PictureColours.RGB(r: 191, g: 191, b: 0)
    private static let red = PictureColours.RGB(r: 191, g: 0, b: 0)

    /// A 4 s 640×360 VP8 clip of SMPTE 75 % colour bars in the test's temporary directory.
    private static func makeColourBars() throws -> String {
        let path = NSTemporaryDirectory() + "wall-bars.webm"
        if FileManager.default.fileExists(atPath: path) { return path }
        let launch = Process()
        launch.executableURL = URL(fileURLWithPath: ExternalTools.path("gst-launch-1.0") ?? "/usr/bin/gst-launch-1.0")
        launch.arguments = ["-q", "videotestsrc", "pattern=smpte75", "num-buffers=60", "!", "video/x-raw,width=640,height=360,framerate=15/1",
                            "!", "vp8enc", "deadline=1", "!", "webmmux", "!", "filesink", "location=\(path)"]
        try launch.run()
        launch.waitUntilExit()
        guard launch.terminationStatus == 0 else { throw XvfbError("gst-launch-1.0 could not make \(path)") }
        return path
    }
}
