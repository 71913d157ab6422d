import Backend
import Foundation
import StreamingQoE
import TestSupport
import XCTest

/// The live edge's threads: 1.22's `hlsdemux` refreshes a live playlist while it
/// holds its manifest lock, and answers the seeking query, takes a seek event and sets
/// `connection-speed` under the same lock. In an outage that refresh waits for the link (or the
/// request's timeout), so anything the loop thread asks of the demuxer then waits as long: the
/// player's timers, events and commands stop. A command given in the outage must leave the loop
/// thread free: the test asks the loop for the position (`Player.currentPosition()`, answered on
/// the loop thread) right after the command and wants the answer within a second.
final class LiveOutageLoopTests: XCTestCase {
    /// A user's seek in the live window during an outage (the core resolves it against the
    /// window and sends it to playbin).
    func testASeekInTheLiveWindowDuringAnOutageLeavesTheLoopThreadFree() throws {
        try inOutage { player in player.seek(toFraction: 0.5) }
    }

    /// A new ABR policy during an outage (a pin to another variant than the current one: the
    /// demuxer's `connection-speed` changes).
    func testAPolicyChangeDuringAnOutageLeavesTheLoopThreadFree() throws {
        try inOutage { player in player.pinVariant(player.adaptiveInfo.current == 0 ? 2 : 0) }
    }

    /// Plays the test server's live playlist at 3000 kbit/s for 8 s (the ABR climbs above 480p), then through a 9 s outage;
    /// 3 s into it (a playlist refresh, every 2 s, is then stuck; `networkTimeout` is 5 s) runs `command`
    /// and measures how long the loop thread takes to answer.
    private func inOutage(_ command: (Player) -> Void, file: StaticString = #filePath, line: UInt = #line) throws {
        let server = try HTTPTestServer(hls: try HLSFixture.ensure())
        defer { server.stop() }
        let trace = try XCTUnwrap(BandwidthTrace(steps: [.init(seconds: 8, kbps: 3000), .init(seconds: 9, kbps: 0), .init(seconds: 60, kbps: 3000)]))
        let recorder = EventRecorder()
        let player = Player.forAdaptiveTesting(recorder)
        defer { player.shutdown() }
        let origin = try XCTUnwrap(server.shape(to: trace, rttMilliseconds: 20))
        player.load(server.url("/hls/live-\(UUID().uuidString)/master.m3u8"))
        recorder.waitFor("playing", timeout: 10, recorder.reachedState(.playing))
        XCTAssertTrue(eventually(timeout: .seconds(5)) { player.adaptiveInfo.isLive }, "live")
        let outageAt = origin + 8 + 3
        Thread.sleep(forTimeInterval: max(0, outageAt - ProcessInfo.processInfo.systemUptime))
        XCTAssertNotNil(LoopProbe.answer(player, within: 5), "the loop thread answers before the command", file: file, line: line)
        command(player)
        let answered = LoopProbe.answer(player, within: 4)
        print("LiveOutageLoopTests: the loop thread answered \(answered.map { String(format: "%.3f s", $0) } ?? "not within 4 s") after the command")
        XCTAssertNotNil(answered, "the loop thread was blocked by the command (waiting for the demuxer's playlist refresh)", file: file, line: line)
        XCTAssertLessThan(answered ?? .infinity, 1.0, "the loop thread answered late", file: file, line: line)
        XCTAssertNil(recorder.events.lazy.compactMap(\.error).first, file: file, line: line)
    }
}

/// How long the player's loop thread takes to run a query (`Player.currentPosition()`), asked
/// on a thread of its own so that a blocked loop thread does not block the test.
private enum LoopProbe {
    /// Seconds until the loop answered, nil when it did not within `seconds` (the asking thread
    /// is left to finish when the loop is free again).
    static func answer(_ player: Player, within seconds: Double) -> Double? {
        let done = DispatchSemaphore(value: 0)
        let started = ProcessInfo.processInfo.systemUptime
        Thread { _ = player.currentPosition(); done.signal() }.start()
        guard done.wait(timeout: .now() + seconds) == .success else { return nil }
        return ProcessInfo.processInfo.systemUptime - started
    }
}
