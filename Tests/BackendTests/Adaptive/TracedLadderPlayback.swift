import Backend
import Foundation
import StreamingQoE
import TestSupport
import XCTest

/// One ABR run of the short ABR tests: the fixture ladder (`HLSFixture`) served by the
/// test server, its link shaped to a trace from `startingAt` seconds into it (20 ms RTT), and a
/// `Player.forAdaptiveTesting` (fake sinks, sync) recording its events, the manifest loaded.
/// Call ``stop()`` at the end (player first, then the server). Test thread only.
final class TracedLadderPlayback {
    let server: HTTPTestServer
    let trace: BandwidthTrace
    /// The server's clock reading at trace time `startingAt` (fragment `start`s are on that clock).
    let origin: Double
    let recorder = EventRecorder()
    let player: Player

    init(trace name: String, startingAt seconds: Double, manifest: String = "/hls/vod/master.m3u8",
         policy: (inout AdaptivePolicy) -> Void = { _ in }) throws {
        let server = try HTTPTestServer(hls: try HLSFixture.ensure())
        do {
            trace = try HTTPTestServer.trace(named: name)
            origin = try XCTUnwrap(server.shape(to: trace, rttMilliseconds: 20, startingAt: seconds), "the server took the trace \(name)")
        } catch {
            server.stop()
            throw error
        }
        self.server = server
        player = Player.forAdaptiveTesting(recorder, policy)
        player.load(server.url(manifest))
    }

    /// Shuts the player down, then stops the server.
    func stop() {
        player.shutdown()
        server.stop()
    }

    /// The fragments requested that started at or after server time `time`.
    func segments(startingAt time: Double) -> [HTTPTestServer.HLSRequest] {
        server.segments().filter { ($0.start ?? 0) >= time }
    }

    /// Every fragment requested, as `variant@seconds` from server time `time` (for failure messages).
    func segmentLog(from time: Double) -> String {
        server.segments().map { "\($0.variant ?? "?")@\(String(format: "%.1f", ($0.start ?? 0) - time))" }.joined(separator: " ")
    }

    /// The ABR's decisions as `to,buffer s,estimate kbit/s,fragment s` (for the printed diagnostics).
    var decisionLog: String {
        player.adaptiveInfo.decisions.map { d in
            "\(d.to),\(d.bufferSeconds.map { String(format: "%.1f", $0) } ?? "-"),\(d.estimate.map { String(Int($0 / 1000)) } ?? "-"),\(String(format: "%.1f", d.fragmentSeconds))"
        }.joined(separator: " ")
    }
}
