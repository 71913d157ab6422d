import Backend
import Foundation
import XCTest

/// The window is titled with the media's title tag (container scope) when it
/// has one, else the file name — never a track's title ("Audio", "English", "Subtitle") — and the
/// title follows the queue item.
final class WindowTitleTests: XCTestCase {
    func testEachFixtureIsTitledWithItsFileNameNotATrackTitle() throws {
        let server = try XvfbServer()
        try withDisplay(server) {
            for name in ["vp8-opus-4s.webm", "tracks.mkv", "with-subs.mkv", "h264-aac-10s.mp4", "theora-vorbis-4s.ogg"] {
                XCTAssertEqual(try titleOnceTagsArrived(playing: DisplayMedia.path(name), on: server).window, name)
            }
        }
    }

    func testTheMediaTitleWinsButATrackTitleDoesNot() throws {
        let directory = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("gstplay-titles-\(getpid())-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        // matroskamux writes taginject's (stream-scope) title as the track's name; mp4mux writes
        // it into the movie's udta, which qtdemux reports as the media's title.
        let track = try clip(in: directory, named: "track-title.mkv", title: "TrackTitle", encoder: ["vp8enc", "!", "matroskamux"])
        let movie = try clip(in: directory, named: "movie-title.mp4", title: "MovieTitle", encoder: ["openh264enc", "!", "h264parse", "!", "mp4mux"])
        let server = try XvfbServer()
        try withDisplay(server) {
            let tracked = try titleOnceTagsArrived(playing: track, on: server)
            XCTAssertNil(tracked.media)
            XCTAssertEqual(tracked.window, "track-title.mkv")
            // The window shows the media info's title (the tracks feature's global tags), else
            // the file name: "MovieTitle" once those tags are read right.
            let titled = try titleOnceTagsArrived(playing: movie, on: server)
            XCTAssertEqual(titled.window, titled.media ?? "movie-title.mp4")
        }
    }

    func testTheTitleFollowsTheQueueItem() throws {
        let server = try XvfbServer()
        try withDisplay(server) {
            let recorder = WindowEventRecorder()
            var configuration = PlayerConfiguration()
            configuration.audioSink = .description("fakeaudiosink")
            let player = Player(configuration: configuration, delegate: recorder)
            defer { player.shutdown() }
            try player.setQueue([QueueItem(uri: "file://" + DisplayMedia.path("short-0.2s.mp4")),
                                 QueueItem(uri: "file://" + DisplayMedia.path("vp8-opus-4s.webm"))])
            let window = try X11Tools.waitForWindow(on: server) { $0.title == "vp8-opus-4s.webm" }
            XCTAssertEqual(window.width, 320)
        }
    }

    /// Plays `path` with a player of its own until it played 0.5 s (every tag has arrived by
    /// then); returns the title of the window it opened and the media info's title.
    private func titleOnceTagsArrived(playing path: String, on server: XvfbServer, file: StaticString = #filePath,
                                      line: UInt = #line) throws -> (window: String?, media: String?) {
        let recorder = WindowEventRecorder()
        var configuration = PlayerConfiguration()
        configuration.audioSink = .description("fakeaudiosink")
        let player = Player(configuration: configuration, delegate: recorder)
        defer { player.shutdown() }
        player.load(path)
        let played = recorder.wait(timeout: 20) { if case .position(let position, _) = $0, position.seconds >= 0.5 { return true } else { return nil } }
        XCTAssertNotNil(played, "\(path) did not play", file: file, line: line)
        let info = recorder.wait(timeout: 1) { if case .mediaInfo(let info) = $0 { return info } else { return nil } }
        let windows = try X11Tools.topLevelWindows(on: server).filter { !$0.title.isEmpty }
        XCTAssertEqual(windows.count, 1, "\(windows)", file: file, line: line)
        return (windows.first?.title, info?.tags.title)
    }

    /// A 1 s clip (160×120) with a `title` tag injected before the encoder (`taginject`).
    private func clip(in directory: URL, named name: String, title: String, encoder: [String]) throws -> String {
        let path = directory.appendingPathComponent(name).path
        let made = try X11Tools.run("gst-launch-1.0", ["-q", "videotestsrc", "num-buffers=30", "!", "video/x-raw,width=160,height=120",
                                                       "!", "taginject", "tags=title=\(title)", "!"] + encoder + ["!", "filesink", "location=\(path)"],
                                    environment: ProcessInfo.processInfo.environment)
        XCTAssertEqual(made.status, 0)
        return path
    }
}
