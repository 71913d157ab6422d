@testable import BackendCore
import Backend
import Foundation
import TestSupport
import XCTest

/// A live source that sends nothing (a UDP port nobody sends to) is announced
/// once and fails after the network timeout instead of waiting forever.
final class LiveSourceTests: XCTestCase {
    func testASilentLiveSourceIsAnnouncedOnceAndFailsAfterTheNetworkTimeout() throws {
        let silent = try SilentUDPPort()
        defer { silent.close() }
        let recorder = EventRecorder()
        let player = Player.forTesting(recorder) { $0.networkTimeout = .seconds(2) }
        defer { player.shutdown() }
        let started = Date()
        player.load(silent.uri)
        let error = recorder.waitForValue("error", timeout: 15) { $0.error }
        let elapsed = Date().timeIntervalSince(started)
        XCTAssertEqual(error?.kind, .network)
        XCTAssertEqual(error?.cause, .noLiveData, "\(String(describing: error))")
        XCTAssertEqual(error?.message, "the live source sent no data within 2 s")
        XCTAssertGreaterThanOrEqual(elapsed, 1.9)
        XCTAssertLessThan(elapsed, 6)
        let waiting = recorder.events.compactMap { if case .waitingForLiveSource(let t) = $0 { return t } else { return nil } }
        XCTAssertEqual(waiting, [.seconds(2)], "announced once, with the limit")
        XCTAssertEqual(player.state, .error)
        XCTAssertEqual(player.refreshStatistics().networkRetries, 0, "no reload: the limit is the limit")
    }

    /// A paused live source is not expected to send: the limit counts only while playing.
    func testAPausedLiveSourceDoesNotFail() throws {
        let silent = try SilentUDPPort()
        defer { silent.close() }
        let recorder = EventRecorder()
        let player = Player.forTesting(recorder) { $0.networkTimeout = .seconds(1); $0.autoplay = false }
        defer { player.shutdown() }
        player.load(silent.uri)
        recorder.waitFor("waiting", timeout: 10) { $0.contains { if case .waitingForLiveSource = $0 { return true } else { return false } } }
        // Twice the limit with no data and no play request: still no error.
        XCTAssertTrue(recorder.staysFalse(for: 2.5) { $0.contains { $0.error != nil } }, "\(recorder.events)")
        player.play()
        let error = recorder.waitForValue("error after play", timeout: 10) { $0.error }
        XCTAssertEqual(error?.cause, .noLiveData)
    }

    /// rtspsrc is live too: a server that accepts the connection and never answers is bounded
    /// by the same limit (rtspsrc's own `tcp-timeout` is 20 s).
    func testASilentRTSPServerFailsAfterTheNetworkTimeout() throws {
        let listener = try XCTUnwrap(LocalSockets.silentTCPListener())
        defer { close(listener.fd) }
        let recorder = EventRecorder()
        let player = Player.forTesting(recorder) { $0.networkTimeout = .seconds(2) }
        defer { player.shutdown() }
        let started = Date()
        player.load("rtsp://127.0.0.1:\(listener.port)/stream")
        let error = recorder.waitForValue("error", timeout: 15) { $0.error }
        XCTAssertEqual(error?.cause, .noLiveData, "\(String(describing: error))")
        XCTAssertLessThan(Date().timeIntervalSince(started), 6)
    }
}
