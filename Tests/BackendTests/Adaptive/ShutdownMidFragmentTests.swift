import Backend
import Foundation
import ProcessProbe
import StreamingQoE
import TestSupport
import XCTest

/// `Player.shutdown()` while a fragment download is under way on a link that went silent (the
/// trace-shaped server at 0 kbit/s: no byte arrives, the connection stays open) — what a QoE
/// bench player and a user quitting on a bad network both do. It must return within a second
/// (before souphttpsrc's network timeout, 5 s here, could free it) and leave no GStreamer
/// streaming thread behind: the demuxer's, the source's and the queues' threads end with it.
final class ShutdownMidFragmentTests: XCTestCase {
    /// 0 kbit/s for 10 minutes (a trace needs one step above zero, far behind).
    private static let silence = BandwidthTrace(steps: [.init(seconds: 600, kbps: 0), .init(seconds: 1, kbps: 1000)])!

    private var server: HTTPTestServer!

    override func setUpWithError() throws { server = try HTTPTestServer(hls: try HLSFixture.ensure()) }
    override func tearDown() { server.stop() }

    /// The names of this process's threads, by id.
    private static func threads() -> [String: String] {
        let probe = ProcessProbe.current
        return Dictionary(uniqueKeysWithValues: (probe.threadIDs ?? []).map { ($0, probe.threadName($0) ?? "?") })
    }

    /// A thread of GLib's or libdispatch's process-wide worker pool, by its /proc name.
    private static func isSharedPoolThread(_ name: String) -> Bool {
        name.hasPrefix("pool-") || name.contains("-qos") || name.hasPrefix("com.apple.root")
    }

    /// Plays `path` until a fragment is under way on the silent link, shuts down, checks the time
    /// and the threads. A first round warms up the process's one-time threads (libdispatch's,
    /// GIO's `gmain` and `dconf worker`); the second is the one checked.
    private func assertShutdownIsPromptMidFragment(_ path: String, file: StaticString = #filePath, line: UInt = #line) {
        shutDownMidFragment(path, before: nil, file: file, line: line)
        server.shape(to: nil)
        shutDownMidFragment(path, before: Self.threads(), file: file, line: line)
    }

    private func shutDownMidFragment(_ path: String, before: [String: String]?, file: StaticString, line: UInt) {
        let earlier = server.hlsRequests().count   // the first round's request stays open on the silent link
        let recorder = EventRecorder()
        let player = Player.forAdaptiveTesting(recorder)
        player.load(server.url(path))
        recorder.waitFor("playing", timeout: 30, file: file, line: line) { recorder.reachedState(.playing)($0) }
        XCTAssertNotNil(server.shape(to: Self.silence), "the server did not take the trace", file: file, line: line)
        let underWay = eventually(timeout: .seconds(20)) {
            self.server.hlsRequests().dropFirst(earlier).contains { $0.isSegment && $0.start != nil && $0.end == nil }
        }
        XCTAssertTrue(underWay, "no fragment under way: \(server.hlsRequests().map(\.path))", file: file, line: line)
        let started = ContinuousClock.now
        player.shutdown()
        let took = ContinuousClock.now - started
        // The baseline, in this run and under the same load: a player of a local file.
        let plain = EventRecorder()
        let baselinePlayer = Player.forTesting(plain)
        baselinePlayer.load(TestMedia.vp8)
        plain.waitFor("playing", timeout: 30, file: file, line: line) { plain.reachedState(.playing)($0) }
        let baselineStarted = ContinuousClock.now
        baselinePlayer.shutdown()
        let baseline = ContinuousClock.now - baselineStarted
        print("ShutdownMidFragmentTests: \(path): shutdown took \(took); a local file's \(baseline)")
        // Waiting for the silent link (souphttpsrc's timeout) would take seconds more.
        XCTAssertLessThan(took, baseline * 3 + .seconds(1), "shutdown mid-fragment", file: file, line: line)
        XCTAssertEqual(player.state, .idle, file: file, line: line)
        guard let before else { return }
        // GStreamer's task threads end when their task is joined; wait a moment for any other,
        // then name those left. The process-wide worker pools keep idle threads for reuse by design
        // and grow on demand, so the warm-up round cannot fix their size: GLib's (`pool-<program>`,
        // GTask's: DNS) and libdispatch's root queues (`com.apple.root.<qos>-qos…`, the name's tail
        // in /proc: seen once under ASan, `oot.default-qos`). Neither is the player's.
        var left: [String] = []
        let gone = eventually(timeout: .seconds(5)) {
            let now = Self.threads()
            left = now.keys.filter { before[$0] == nil && !Self.isSharedPoolThread(now[$0]!) }.map { now[$0]! }.sorted()
            return left.isEmpty
        }
        XCTAssertTrue(gone, "threads left after shutdown: \(left)", file: file, line: line)
    }

    func testShutdownMidFragmentOfASilentHLSDownloadIsPromptAndLeavesNoThread() {
        assertShutdownIsPromptMidFragment("/hls/vod/master.m3u8")
    }

    func testShutdownMidFragmentOfASilentDASHDownloadIsPromptAndLeavesNoThread() {
        assertShutdownIsPromptMidFragment("/hls/vod/manifest.mpd")
    }
}
