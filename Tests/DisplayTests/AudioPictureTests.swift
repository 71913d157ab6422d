import Backend
import Foundation
import TestSupport
import XCTest

/// Pictures for audio-only media in the window, on a private Xvfb with the automatic
/// sinks (`ximagesink`) and `StandardFeatures.visualization = .auto`: the MP3's cover art is
/// drawn into the window, a file without art shows a moving visualiser.
final class AudioPictureTests: XCTestCase {
    private func player(_ recorder: WindowEventRecorder, _ visualization: AudioVisualization = .auto) -> Player {
        var configuration = PlayerConfiguration()
        configuration.audioSink = .description("fakesink sync=true")
        var standard = StandardFeatures()
        standard.visualization = visualization
        return Player(configuration: configuration, standard: standard, delegate: recorder)
    }

    /// The centres of the seven SMPTE bars across the top of `cover-art.png` (fractions of the picture).
    private static let bars = (0..<7).map { (Double($0) + 0.3) / 7.0 }

    func testCoverArtIsDrawnIntoTheWindow() throws {
        let server = try XvfbServer()
        let art = try (0..<7).map { try PictureColours.meanColour(of: TestMedia.coverArt, x: Self.bars[$0], y: 0.2, width: 0.4 / 7, height: 0.2) }
        try withDisplay(server) {
            let recorder = WindowEventRecorder()
            let player = player(recorder)
            defer { player.shutdown() }
            player.load(TestMedia.taggedMP3)
            let window = try X11Tools.waitForWindow(on: server) { $0.title.hasPrefix("Test Tone") }
            let shot = X11Tools.screenshotDirectory.appendingPathComponent("audio-picture-cover.png").path
            var seen: [PictureColours.RGB] = []
            let shows = eventually(timeout: .seconds(3), interval: .milliseconds(200)) {
                guard (try? X11Tools.screenshot(window.id, on: server, to: shot)) != nil,
                      let colours = try? (0..<7).map({ try PictureColours.meanColour(of: shot, x: Self.bars[$0], y: 0.2, width: 0.4 / 7, height: 0.2) })
                else { return false }
                seen = colours
                return zip(colours, art).allSatisfy { $0.isClose(to: $1, tolerance: 40) }
            }
            XCTAssertTrue(shows, "the window's bars \(seen) resemble the art's \(art): \(shot)")
            XCTAssertGreaterThan(try PictureColours.spread(of: shot), 0.1, "not uniform: \(shot)")
        }
    }

    func testWithoutArtAVisualiserMovesInTheWindow() throws {
        let server = try XvfbServer()
        try withDisplay(server) {
            let recorder = WindowEventRecorder()
            let player = player(recorder)
            defer { player.shutdown() }
            player.load(TestMedia.taggedOgg)
            let window = try X11Tools.waitForWindow(on: server) { $0.title.hasPrefix("Ogg Tone") }
            let first = X11Tools.screenshotDirectory.appendingPathComponent("audio-picture-vis-1.png").path
            let second = X11Tools.screenshotDirectory.appendingPathComponent("audio-picture-vis-2.png").path
            try X11Tools.screenshot(window.id, on: server, to: first)
            let moved = eventually(timeout: .seconds(2), interval: .milliseconds(250)) {
                guard (try? X11Tools.screenshot(window.id, on: server, to: second)) != nil else { return false }
                return (try? PictureColours.signature(of: first)) != (try? PictureColours.signature(of: second))
            }
            XCTAssertTrue(moved, "two screenshots differ: \(first), \(second)")
            XCTAssertGreaterThan(try PictureColours.spread(of: second), 0.01, "not uniform: \(second)")
        }
    }

    func testNoneOpensNoWindowForAudio() throws {
        let server = try XvfbServer()
        try withDisplay(server) {
            let recorder = WindowEventRecorder()
            let player = player(recorder, .none)
            defer { player.shutdown() }
            player.load(TestMedia.taggedOgg)
            XCTAssertNotNil(recorder.wait(timeout: 10) { if case .stateChanged(_, .playing) = $0 { return true } else { return nil } })
            XCTAssertTrue(try X11Tools.topLevelWindows(on: server).filter { $0.title.hasPrefix("Ogg Tone") }.isEmpty)
        }
    }
}
