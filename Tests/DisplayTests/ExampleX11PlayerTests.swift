import Foundation
import TestSupport
import XCTest

/// Sources/ExampleX11Player on a private X server: the video lands in the app's own window
/// (`Player.setRenderTarget(windowHandle:)`) and the sink opens no window of its own.
final class ExampleX11PlayerTests: XCTestCase {
    func testTheFixturePlaysIntoTheAppsWindow() throws {
        let picture = try playIntoWindow(gravity: "fit", shot: "example-x11-player-fit.png")
        // 320x240 in 480x270 with bars: 360x270 in the middle; the time text starts below row 16.
        XCTAssertEqual(picture.top, 0, "fit: something was drawn in the top rows")
    }

    func testFillCropsThePictureToTheWindowsShape() throws {
        let picture = try playIntoWindow(gravity: "fill", shot: "example-x11-player-fill.png")
        // 320x240 cropped to 320x180 and scaled to 480x270: the burnt-in time moves up into the top rows.
        XCTAssertGreaterThan(picture.top, 0.01, "fill: the picture was not cropped")
    }

    /// Runs the example with `gravity` into a 480x270 window until a second has played; returns the
    /// bright fraction of the whole window and of its top 16 rows.
    private func playIntoWindow(gravity: String, shot name: String) throws -> (all: Double, top: Double) {
        let server = try XvfbServer(width: 800, height: 600)
        let example = try GstplayProcess(["--size", "480x270", "--gravity", gravity, "--seconds", "20", DisplayMedia.h264],
                                         product: "ExampleX11Player", environment: server.environment()).started()
        defer {
            example.process.interrupt()
            _ = example.waitForExit(timeout: 10)
        }
        let window = try X11Tools.waitForWindow(on: server) { $0.title == "ExampleX11Player" }
        XCTAssertEqual(window.width, 480)
        XCTAssertEqual(window.height, 270)
        // Wait until a second has been played, i.e. frames were drawn.
        let deadline = Date().addingTimeInterval(20)
        while Date() < deadline, !example.stdout.contains("position 1") { Thread.sleep(forTimeInterval: 0.05) }
        XCTAssertTrue(example.stdout.contains("position 1"), "not playing:\n\(example.stdout)\n\(example.stderr)")

        XCTAssertEqual(try X11Tools.topLevelWindows(on: server).map(\.title), ["ExampleX11Player"], "the sink opened a window of its own")
        let picture = try X11Tools.assertShowsPicture(window.id, on: server, width: 480, screenshot: name,
                                                      black: "nothing was drawn into the app's window")
        let top = try X11Tools.brightness(of: picture.path, region: "480x16+0+0")
        return (picture.brightFraction, top.brightFraction)
    }

    func testBadArgumentsExitWithStatusTwo() throws {
        let example = try GstplayProcess(["--gravity", "sideways", DisplayMedia.h264],
                                         product: "ExampleX11Player", environment: ProcessInfo.processInfo.environment).started()
        XCTAssertEqual(example.waitForExit(timeout: 10), 2)
        XCTAssertTrue(example.stderr.hasPrefix("error: --gravity takes fit, fill or stretch"), example.stderr)
    }
}
