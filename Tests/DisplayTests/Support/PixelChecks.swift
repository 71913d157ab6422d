import Foundation
import TestSupport
import XCTest

/// Pixel checks on screenshots for the drawn subtitles and the OSD (ImageMagick `convert`; `make
/// test` installs it): how much of a region differs between two pictures, how much of a picture
/// has the OSD's colour, and a screenshot taken once the window stopped changing.
enum PixelChecks {
    /// The fraction of pixels of `region` (ImageMagick geometry, e.g. `320x80+0+160`) that differ
    /// by more than 10 % between the PNGs `a` and `b` (`-compose difference`, grey, threshold).
    static func differingFraction(_ a: String, _ b: String, region: String) throws -> Double {
        try measure([a, b, "-crop", region, "+repage", "-compose", "difference", "-composite",
                     "-colorspace", "Gray", "-threshold", "10%", "-format", "%[fx:mean]", "info:"])
    }

    /// The fraction of the picture in the OSD's warm yellow (`OSDSettings.colour`, 0xFFD23C):
    /// red and green high, blue low. White subtitles, the fixtures' white ball and text, and
    /// black do not count.
    static func osdFraction(_ path: String, region: String? = nil) throws -> Double {
        let crop = region.map { ["-crop", $0, "+repage"] } ?? []
        return try measure([path] + crop + ["-fx", "r>0.7 && g>0.55 && b<0.5 ? 1 : 0", "-format", "%[fx:mean]", "info:"])
    }

    /// The fraction of `region` that is near white (every channel above 80 %).
    static func whiteFraction(_ path: String, region: String) throws -> Double {
        try measure([path, "-crop", region, "+repage", "-fx", "r>0.8 && g>0.8 && b>0.8 ? 1 : 0", "-format", "%[fx:mean]", "info:"])
    }

    /// Screenshots `window` into `name` (under the kept screenshot directory) once two screenshots
    /// in a row, 150 ms apart, are the same (the paused frame after a seek is on screen); at most `timeout`.
    static func settledScreenshot(_ window: String, on server: XvfbServer, name: String, timeout: TimeInterval = 10) throws -> String {
        let path = X11Tools.screenshotDirectory.appendingPathComponent(name).path
        let previous = path + ".previous.png"
        try X11Tools.screenshot(window, on: server, to: previous)
        let deadline = Date().addingTimeInterval(timeout)
        repeat {
            Thread.sleep(forTimeInterval: 0.15)
            try X11Tools.screenshot(window, on: server, to: path)
            if try differingFraction(previous, path, region: "100%x100%+0+0") == 0 { return path }
            try? FileManager.default.removeItem(atPath: previous)
            try FileManager.default.copyItem(atPath: path, toPath: previous)
        } while Date() < deadline
        throw XvfbError("\(name): the window kept changing for \(timeout) s")
    }

    private static func measure(_ arguments: [String]) throws -> Double {
        let output = try X11Tools.run("convert", arguments, environment: ProcessInfo.processInfo.environment).output
        guard let value = Double(output.trimmingCharacters(in: .whitespacesAndNewlines)) else { throw XvfbError("convert said: \(output)") }
        return value
    }
}
