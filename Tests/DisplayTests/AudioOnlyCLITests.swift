import Foundation
import TestSupport
import XCTest

/// Audio-only media in the built `gstplay`'s window, on a private Xvfb: the visualiser's picture
/// is not the media's video.
final class AudioOnlyCLITests: XCTestCase {
    /// An audio-only file (a visualiser in the window) prints no `Video:` line (it printed
    /// `Video: 480x480`, the visualiser's size); the video file after it plays with its own line
    /// (it was handed over gaplessly behind the visualiser: playbin stalled and gstplay never
    /// exited, or the item failed `not-linked`).
    func testAnAudioOnlyItemPrintsNoVideoLineAndTheVideoItemAfterItPlays() throws {
        let server = try XvfbServer()
        let audio = DisplayMedia.path("audio-only-4s.ogg"), video = DisplayMedia.path("vp8-opus-4s.webm")
        let result = try GstplayProcess.run(["--no-mpris", "--audio-sink", "fakeaudiosink sync=true", audio, video], timeout: 60,
                                            environment: server.environment())
        XCTAssertEqual(result.status, 0, result.stderr)
        let notes = GstplayProcess.completeLines(result.stderr).filter { $0.hasPrefix("Now playing") || $0.hasPrefix("Video:") }
        XCTAssertEqual(notes, ["Now playing \(audio) (1/2)", "Now playing \(video) (2/2)", "Video: 320x240"], result.stderr)
        XCTAssertFalse(result.stderr.contains("error"), result.stderr)
    }
}
