@testable import BackendCore
@testable import BackendWindow
import Backend
import Foundation
import Synchronization
import XCTest

/// The Backend's ``Player`` on a private Xvfb: automatic sinks probe to `ximagesink`, keys typed
/// into its window arrive as ``WindowEvent/key(_:)``, ``Player/toggleFullscreen()`` resizes it.
final class PlayerWindowTests: XCTestCase {
    func testTheWindowReportsKeysAndGoesFullscreen() throws {
        let server = try XvfbServer(width: 1024, height: 768)
        try withDisplay(server) {
            let recorder = WindowEventRecorder()
            var configuration = PlayerConfiguration()
            configuration.audioSink = .description("fakeaudiosink")
            let player = Player(configuration: configuration, delegate: recorder)
            defer { player.shutdown() }
            player.load(DisplayMedia.nonSquare)

            let sinks = recorder.wait(timeout: 15) { if case .sinksChosen(let video, let audio, let reason) = $0 { return (video, audio, reason) } else { return nil } }
            XCTAssertEqual(sinks?.0, "ximagesink")
            XCTAssertEqual(sinks?.1, "fakeaudiosink")
            XCTAssertEqual(sinks?.2, "", "a real sink was found: no note")
            let window = try X11Tools.waitForWindow(on: server) { $0.title == "par-64-45.mkv" }
            XCTAssertEqual(window.width, 1024)
            XCTAssertEqual(window.height, 576)

            try X11Tools.type(["Left", "space"], into: window.id, on: server)
            let keys = recorder.wait(timeout: 10) { _ in
                let keys = recorder.events.compactMap { if case .key(let key)? = $0.payload(as: WindowEvent.self) { return key } else { return nil } }
                return keys.count >= 2 ? keys : nil
            }
            XCTAssertEqual(keys, ["Left", "space"])

            player.toggleFullscreen()
            XCTAssertEqual(recorder.wait(timeout: 10) { if case .fullscreenChanged(let on)? = $0.payload(as: WindowEvent.self) { return on } else { return nil } }, true)
            _ = try X11Tools.waitForWindow(on: server) { $0.id == window.id && $0.width == 1024 && $0.height == 768 }
        }
    }

    func testAFakeVideoSinkHasNoWindowToMakeFullscreen() throws {
        let recorder = WindowEventRecorder()
        var configuration = PlayerConfiguration()
        configuration.videoSink = .description("fakevideosink")
        configuration.audioSink = .description("fakeaudiosink")
        let player = Player(configuration: configuration, delegate: recorder)
        defer { player.shutdown() }
        player.load(DisplayMedia.h264)
        XCTAssertNotNil(recorder.wait(timeout: 15) { if case .stateChanged(_, .playing) = $0 { return true } else { return nil } })
        player.toggleFullscreen()
        player.pause()
        XCTAssertNotNil(recorder.wait(timeout: 10) { if case .stateChanged(_, .paused) = $0 { return true } else { return nil } })
        XCTAssertFalse(recorder.events.contains { if case .fullscreenChanged? = $0.payload(as: WindowEvent.self) { return true } else { return false } })
    }
}

/// Collects a player's events (loop thread) and lets the test wait for one.
final class WindowEventRecorder: PlayerDelegate, Sendable {
    private let records = Mutex<[PlayerEvent]>([])
    private let condition = NSCondition()

    func player(_ player: Player, didReceive event: PlayerEvent) {
        records.withLock { $0.append(event) }
        condition.lock(); condition.broadcast(); condition.unlock()
    }

    var events: [PlayerEvent] { records.withLock { $0 } }

    /// The first value `match` extracts from an event (in order), waiting up to `timeout` seconds.
    func wait<T>(timeout: TimeInterval, _ match: (PlayerEvent) -> T?) -> T? {
        let deadline = Date().addingTimeInterval(timeout)
        condition.lock()
        defer { condition.unlock() }
        while true {
            if let found = events.lazy.compactMap(match).first { return found }
            if !condition.wait(until: deadline) { return events.lazy.compactMap(match).first }
        }
    }
}
