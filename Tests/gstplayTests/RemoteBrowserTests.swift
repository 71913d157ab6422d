import Foundation
import TestSupport
import XCTest

/// The web remote's page in a real browser — Debian's headless Chromium driven by chromium-driver
/// and Selenium (Tests/Scripts/remote_browser.py): pause, seek by dragging, screenshots at a
/// desktop and a phone viewport, and the page without a token.
final class RemoteBrowserTests: XCTestCase {
    func testPageDrivesThePlayer() throws {
        VenvScript.assertInstalled()
        XCTAssertTrue(FileManager.default.isExecutableFile(atPath: "/usr/bin/chromedriver"), "make setup-test installs chromium-driver")
        let session = try RemoteSession(["--remote=0", "--loop", TestMedia.h264, TestMedia.vp8])
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("remote-browser").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let run = RemoteSession.script("remote_browser.py", [session.url, directory], timeout: 120)
        XCTAssertEqual(run.status, 0, run.output)
        let steps = Dictionary(run.output.split(separator: "\n").compactMap { jsonObject(String($0)) }
            .compactMap { step in (step["step"] as? String).map { ($0, step) } }, uniquingKeysWith: { a, _ in a })

        let desktop = try XCTUnwrap(steps["desktop"], run.output)
        XCTAssertNotEqual(desktop["first"] as? String, desktop["second"] as? String, "the position text moves")
        XCTAssertEqual(desktop["title"] as? String, "h264-aac-10s.mp4")
        XCTAssertEqual(desktop["queue"] as? Int, 2)
        XCTAssertEqual(steps["hover"]?["preview_width"] as? Int, 160, "the hover preview is a thumbnail: \(run.output)")
        XCTAssertTrue(["0:02", "0:03"].contains(steps["hover"]?["preview_time"] as? String ?? ""), "25 % of the 10 s clip: \(run.output)")
        XCTAssertLessThanOrEqual(steps["phone"]?["scroll_width"] as? Int ?? 999, 375, "no sideways scrolling at 375 px")

        // The click reached the player: its own --json state went to paused.
        XCTAssertNotNil(steps["paused"], run.output)
        XCTAssertNotNil(session.child.waitForJSON { $0["event"] as? String == "state" && $0["to"] as? String == "paused" },
                        session.child.stdout)
        // The drag to the middle: a seek-done near 5 s of the 10 s clip.
        XCTAssertNotNil(steps["dragged"], run.output)
        // A slow drag may seek on its way (a loaded machine delivers the pointer's moves apart):
        // the drag's end lands near 5 s.
        let landed = session.child.waitForJSON { $0["event"] as? String == "seek-done" && abs(($0["position"] as? Double ?? -9) - 5) <= 0.6 }
        XCTAssertNotNil(landed, "no seek-done near the middle: \(session.child.stdout.split(separator: "\n").filter { $0.contains("seek-done") })")

        // Mute and remove went through the player: its own events say so.
        XCTAssertNotNil(steps["muted"], run.output)
        XCTAssertNotNil(session.child.waitForJSON { $0["event"] as? String == "volume" && $0["muted"] as? Bool == true }, session.child.stdout)
        XCTAssertEqual(steps["removed"]?["title"] as? String, "h264-aac-10s.mp4", run.output)
        XCTAssertNotNil(session.child.waitForJSON { $0["event"] as? String == "playlist" && ($0["items"] as? [Any])?.count == 1 },
                        session.child.stdout)

        let noToken = try XCTUnwrap(steps["no-token"], run.output)
        XCTAssertTrue((noToken["notice"] as? String)?.contains("401") == true, "\(noToken)")
        XCTAssertEqual(noToken["all_disabled"] as? Bool, true, "no control without the token")

        for (name, width) in [("desktop-1", 1280), ("desktop-2", 1280), ("phone", 375), ("no-token", 1280)] {
            let data = try XCTUnwrap(FileManager.default.contents(atPath: "\(directory)/\(name).png"), name)
            let image = try XCTUnwrap(DecodedImage.decode(data), name)
            XCTAssertEqual(image.width, width, name)
            XCTAssertGreaterThan(image.brightnessDeviation, 5, "\(name) is not blank")
        }
        let first = try XCTUnwrap(DecodedImage.decode(try XCTUnwrap(FileManager.default.contents(atPath: "\(directory)/desktop-1.png"))))
        let second = try XCTUnwrap(DecodedImage.decode(try XCTUnwrap(FileManager.default.contents(atPath: "\(directory)/desktop-2.png"))))
        XCTAssertGreaterThan(second.differingPixels(from: first), 20, "the position text changed on screen")
        session.stop()
    }

    /// The page's layout on a video with no audio and no subtitle track, at a desktop and a phone
    /// viewport: the seek bar's thumbnail preview stays inside the window wherever the bar is
    /// hovered (it was drawn above the bar, cut off by the top of the page, and half off the
    /// side at the bar's ends), and the track selectors are hidden instead of empty boxes.
    func testThePreviewStaysInTheWindowAndEmptyTrackSelectorsAreHidden() throws {
        VenvScript.assertInstalled()
        let session = try RemoteSession(["--remote=0", "--loop", TestMedia.path("colour-steps-4s.webm")])
        defer { session.stop() }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("remote-layout").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let run = RemoteSession.script("remote_browser.py", ["layout", session.url, directory], timeout: 120)
        XCTAssertEqual(run.status, 0, run.output)
        let steps = run.output.split(separator: "\n").compactMap { jsonObject(String($0)) }
        let previews = steps.filter { $0["step"] as? String == "preview" }
        XCTAssertEqual(previews.count, 6, run.output)
        for preview in previews {
            let rect = try XCTUnwrap(preview["rect"] as? [String: Double], "\(preview)")
            let window = try XCTUnwrap(preview["window"] as? [String: Double], "\(preview)")
            let place = "\(preview["viewport"] ?? "?") \(preview["place"] ?? "?"): \(rect) in \(window)"
            XCTAssertGreaterThan(rect["height"] ?? 0, 60, "the thumbnail is in the preview: \(place)")
            XCTAssertGreaterThanOrEqual(rect["top"] ?? -1, 0, place)
            XCTAssertGreaterThanOrEqual(rect["left"] ?? -1, 0, place)
            XCTAssertLessThanOrEqual(rect["right"] ?? .infinity, window["width"] ?? 0, place)
            XCTAssertLessThanOrEqual(rect["bottom"] ?? .infinity, window["height"] ?? 0, place)
        }
        let tracks = try XCTUnwrap(steps.first { $0["step"] as? String == "tracks" }, run.output)
        XCTAssertEqual(tracks["audio"] as? Bool, false, "no audio track: no audio selector")
        XCTAssertEqual(tracks["subtitle"] as? Bool, false, "no subtitle track: no subtitle selector")
        XCTAssertEqual(tracks["section"] as? Bool, false, "no selector: no Tracks section")
        for name in ["layout-desktop-preview", "layout-phone-preview", "layout-phone"] {
            let data = try XCTUnwrap(FileManager.default.contents(atPath: "\(directory)/\(name).png"), name)
            XCTAssertNotNil(DecodedImage.decode(data), name)
        }
    }

    /// The page reconnects (with backoff) when gstplay restarts on the same port with the same token.
    func testPageReconnectsWhenThePlayerRestarts() throws {
        VenvScript.assertInstalled()
        let port = try XCTUnwrap(LocalSockets.refusingTCPPort())
        let tokenFile = FileManager.default.temporaryDirectory.appendingPathComponent("remote-token").path
        try "reconnect-token-0123456789".write(toFile: tokenFile, atomically: true, encoding: .utf8)
        chmod(tokenFile, 0o600)      // a token file others may read is refused
        let directory = FileManager.default.temporaryDirectory.path
        let run = RemoteSession.script("remote_browser.py", ["reconnect", directory, GstplayProcess.binary.path,
                                                             "--remote=\(port)", "--remote-token-file", tokenFile, "--loop", TestMedia.vp8],
                                       timeout: 90)
        XCTAssertEqual(run.status, 0, run.output)
        let steps = run.output.split(separator: "\n").compactMap { jsonObject(String($0)) }
        XCTAssertEqual(steps.map { $0["step"] as? String }, ["lost", "reconnected"], run.output)
        XCTAssertEqual(steps.last?["same_url"] as? Bool, true)
        XCTAssertLessThan(steps.last?["seconds"] as? Double ?? 99, 15, "the backoff is at most 8 s")
    }
}
