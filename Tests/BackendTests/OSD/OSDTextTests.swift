import BackendOSD
import BackendCore
import XCTest

/// The OSD's words (pure): times, the bar, markup escaping, volume and rate messages.
final class OSDTextTests: XCTestCase {
    func testTimesBarAndProgress() {
        XCTAssertEqual(OSDText.time(MediaTime(seconds: 3.9)), "0:03")
        XCTAssertEqual(OSDText.time(MediaTime(seconds: 3725)), "1:02:05")
        XCTAssertEqual(OSDText.time(MediaTime(seconds: -2)), "0:00")
        XCTAssertEqual(OSDText.bar(fraction: 0.5), String(repeating: "█", count: 12) + String(repeating: "░", count: 12))
        XCTAssertEqual(OSDText.bar(fraction: 7), String(repeating: "█", count: OSDText.barWidth))
        XCTAssertEqual(OSDText.bar(fraction: .nan), String(repeating: "░", count: OSDText.barWidth))
        XCTAssertEqual(OSDText.progress(position: MediaTime(seconds: 5), duration: MediaTime(seconds: 10)),
                       "0:05 / 0:10\n" + OSDText.bar(fraction: 0.5))
        XCTAssertEqual(OSDText.progress(position: MediaTime(seconds: 5), duration: nil), "0:05")
    }

    func testMessagesAreEscapedForPango() {
        XCTAssertEqual(OSDText.markup(message: "Audio: <b>Tom & Jerry</b>", progress: nil), "Audio: &lt;b&gt;Tom &amp; Jerry&lt;/b&gt;")
        XCTAssertEqual(OSDText.markup(message: "Paused", progress: "0:01"), "Paused\n0:01")
        XCTAssertEqual(OSDText.markup(message: nil, progress: nil), "")
        XCTAssertEqual(OSDText.volume(0.4, muted: true), "Muted")
        XCTAssertEqual(OSDText.rate(1.5), "Speed 1.5×")
        XCTAssertEqual(OSDText.rate(2), "Speed 2×")
    }

    /// The volume message shows the number the player reports (`volume` events, the status line,
    /// `--volume`): the perceptual (cubic) percentage of playbin's linear volume, as gst-play's
    /// keys step it. The linear 0.729 / 0.512 / 0.125 used to show as 73 / 51 / 13 %.
    func testTheVolumeMessageIsTheCubicPercentage() {
        XCTAssertEqual(OSDText.volume(0.729, muted: false), "Volume 90 %")
        XCTAssertEqual(OSDText.volume(0.512, muted: false), "Volume 80 %")
        XCTAssertEqual(OSDText.volume(0.125, muted: false), "Volume 50 %")
        XCTAssertEqual(OSDText.volume(VolumeScale.linear(fromCubic: 0.4), muted: false), "Volume 40 %")
        XCTAssertEqual(OSDText.volume(1, muted: false), "Volume 100 %")
        XCTAssertEqual(OSDText.volume(0, muted: false), "Volume 0 %")
    }
}
