@testable import BackendOSD
import Backend
import Foundation
import TestSupport
import XCTest

/// The OSD's words and what reaches the window, with the standard features on a private Xvfb
/// (`ximagesink`): the volume as the player reports it, `Paused` drawn while paused, and the
/// chapter reached by a seek back to the first one.
final class OSDStateTests: XCTestCase {
    /// A player with the standard features (the OSD among them) drawing into its own window.
    private func makePlayer(_ recorder: EventRecorder) -> Player {
        var configuration = PlayerConfiguration()
        configuration.audioSink = .description("fakeaudiosink")
        return Player(configuration: configuration, delegate: recorder)
    }

    /// The OSD's text now (its `textoverlay` markup; empty when hidden), read on the loop thread.
    private func shownText(_ player: Player) -> String {
        let text = TextBox()
        player.withFeatureAndWait(OSDFeature.self) { feature, _ in text.value = feature.shownText }
        return text.value
    }

    /// Pausing draws `Paused` into the paused picture (it used to wait for the next frame, which
    /// never came while paused) and it stays while paused; playing on says `Playing`. The volume
    /// message carries the number the player reports (90 %, the cubic scale of `--volume`, the
    /// `volume` event and the status line; it said 73 %).
    func testTheOSDShowsTheReportedVolumeAndPausedWhilePaused() throws {
        let server = try XvfbServer(width: 800, height: 600)
        try withDisplay(server) {
            let recorder = EventRecorder()
            let player = makePlayer(recorder)
            defer { player.shutdown() }
            player.load(DisplayMedia.h264)
            recorder.waitFor("a position past 0.5 s", timeout: 20) { $0.contains { ($0.position?.seconds ?? 0) > 0.5 } }
            let window = try X11Tools.waitForWindow(on: server) { $0.title == "h264-aac-10s.mp4" }

            let clear = X11Tools.screenshotDirectory.appendingPathComponent("osd-state-playing.png").path
            XCTAssertTrue(try screenshotUntil(window.id, on: server, path: clear) { $0 < 0.001 }, "an OSD before the pause: \(clear)")

            let seen = recorder.count
            player.pause()
            recorder.waitFor("paused", timeout: 15) { $0.dropFirst(seen).contains { $0.newState == .paused } }
            XCTAssertTrue(shownText(player).hasPrefix("Paused"), shownText(player))
            // The redraw of the paused picture is a flushing seek and a preroll: under a sanitizer and
            // the suite's load the picture from before it can stay still long enough to look settled.
            let paused = X11Tools.screenshotDirectory.appendingPathComponent("osd-state-paused.png").path
            XCTAssertTrue(try screenshotUntil(window.id, on: server, path: paused) { $0 > 0.005 }, "no OSD on the paused picture: \(paused)")

            // Longer than the OSD's 1.5 s: the pause is still shown (nothing but a flush redraws it).
            Thread.sleep(forTimeInterval: 2.5)
            XCTAssertTrue(shownText(player).hasPrefix("Paused"), shownText(player))
            let later = try PixelChecks.settledScreenshot(window.id, on: server, name: "osd-state-paused-later.png")
            XCTAssertGreaterThan(try PixelChecks.osdFraction(later), 0.005, "the paused OSD went: \(later)")

            player.play()
            XCTAssertTrue(eventually(timeout: .seconds(10)) { self.shownText(player).hasPrefix("Playing") }, shownText(player))
            player.setVolume(VolumeScale.linear(fromCubic: 0.9))
            XCTAssertTrue(eventually(timeout: .seconds(10)) { self.shownText(player).hasPrefix("Volume 90 %") }, shownText(player))
        }
    }

    /// Back to the first chapter from the last: the OSD names the chapter reached ("Chapter 1/5:
    /// Opening"), not the one it showed before the seek ("Chapter 5/5: Closing" over `0:00`).
    func testAChapterSeekBackShowsTheChapterReached() throws {
        let server = try XvfbServer(width: 640, height: 480)
        try withDisplay(server) {
            let recorder = EventRecorder()
            let player = makePlayer(recorder)
            defer { player.shutdown() }
            player.load(DisplayMedia.path("chapters.mkv"))
            recorder.waitFor("a position past 0.3 s", timeout: 20) { $0.contains { ($0.position?.seconds ?? 0) > 0.3 } }
            var seen = recorder.count
            try player.seek(toChapter: 4)
            recorder.waitFor("the seek to chapter 4", timeout: 15) { $0.dropFirst(seen).contains { ($0.seekDone?.seconds ?? 0) > 3.9 } }
            XCTAssertTrue(eventually(timeout: .seconds(10)) { self.shownText(player).hasPrefix("Chapter 5/5: Closing") }, shownText(player))
            seen = recorder.count
            try player.seek(toChapter: 0)
            recorder.waitFor("the seek back", timeout: 15) { $0.dropFirst(seen).contains { ($0.seekDone?.seconds ?? 9) < 0.5 } }
            let text = shownText(player)
            XCTAssertTrue(text.hasPrefix("Chapter 1/5: Opening"), text)
            XCTAssertFalse(text.contains("Closing"), text)
        }
    }
}

/// Screenshots `window` into `path` until the fraction of the OSD's colour in it is `wanted`
/// (none: the frames drawn after the OSD hid have reached the window; some: the redrawn paused
/// picture has), for at most 10 s; whether that happened.
private func screenshotUntil(_ window: String, on server: XvfbServer, path: String, osdFraction wanted: (Double) -> Bool) throws -> Bool {
    let deadline = Date().addingTimeInterval(10)
    repeat {
        try X11Tools.screenshot(window, on: server, to: path)
        if wanted(try PixelChecks.osdFraction(path)) { return true }
        Thread.sleep(forTimeInterval: 0.1)
    } while Date() < deadline
    return false
}

/// A string written on the loop thread and read after ``Player/withFeatureAndWait(_:_:)`` returned.
private final class TextBox: @unchecked Sendable {
    var value = ""
}
