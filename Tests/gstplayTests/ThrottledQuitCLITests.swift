import Foundation
@testable import gstplay
import StreamingQoE
import TestSupport
import XCTest

/// Quitting while an adaptive download crawls (a user quitting
/// gstplay on a slow network). gstplay plays the HLS/DASH ladder from the trace-shaped test
/// server; once it plays, the link drops to 4 kbit/s, and when a fragment is under way (the
/// server's log has its request and no end) gstplay is told to go: `quit`, SIGTERM, SIGINT, or
/// `next` to a short local file whose end ends the queue. It must exit promptly with its
/// documented code, through the clean shutdown (the last `state` event is `idle`: the
/// ``ExitGuard`` that ends a stuck shutdown after a signal writes none).
final class ThrottledQuitCLITests: XCTestCase {
    /// The bound on ending, as in `SignalCLITests`: 1 s, plus the second ThreadSanitizer's
    /// runtime sleeps inside `exit()`.
    private static let endBound: Duration = .seconds(1) + (dlsym(nil, "__tsan_init") != nil ? .seconds(1) : .zero)

    /// 4 kbit/s for 10 minutes: a 2 s fragment of the lowest variant (~90 kB) would take 3 minutes.
    private static let crawl = BandwidthTrace(steps: [.init(seconds: 600, kbps: 4)])!

    private var server: HTTPTestServer!

    override func setUpWithError() throws { server = try HTTPTestServer(hls: try HLSFixture.ensure()) }
    override func tearDown() { server?.stop() }

    /// gstplay `--json` on the ladder (`hls` or `dash`) plus `more` items, playing, the link
    /// then at a crawl with a fragment under way.
    private func startCrawling(_ proto: String, more: [String] = []) throws -> GstplayProcess {
        let path = proto == "hls" ? "/hls/vod/master.m3u8" : "/hls/vod/manifest.mpd"
        let child = GstplayProcess(["--json", server.url(path)] + more)
        try child.start()
        XCTAssertNotNil(child.waitForJSON(timeout: 30) { $0["event"] as? String == "state" && $0["to"] as? String == "playing" },
                        "never played: \(child.stderr)")
        XCTAssertNotNil(server.shape(to: Self.crawl), "the server did not take the trace")
        let underWay = eventually(timeout: .seconds(20)) {
            self.server.hlsRequests().contains { $0.isSegment && $0.start != nil && $0.end == nil }
        }
        XCTAssertTrue(underWay, "no fragment under way: \(server.hlsRequests().map(\.path))")
        return child
    }

    /// Waits for the exit; checks the code, the time since `sent` and the clean shutdown.
    private func assertEnds(_ child: GstplayProcess, with code: Int32, since sent: ContinuousClock.Instant,
                            bound: Duration = endBound, file: StaticString = #filePath, line: UInt = #line) {
        let status = child.waitForExit(timeout: 10)
        let elapsed = ContinuousClock.now - sent
        print("ThrottledQuitCLITests: exit \(status.map(String.init) ?? "none") after \(elapsed)")
        XCTAssertEqual(status, code, child.stderr, file: file, line: line)
        XCTAssertLessThan(elapsed, bound, "took \(elapsed) to end", file: file, line: line)
        let states = child.jsonLines.filter { $0["event"] as? String == "state" }.compactMap { $0["to"] as? String }
        XCTAssertEqual(states.last, "idle", "not the clean shutdown: states \(states)", file: file, line: line)
    }

    func testQuitMidFragmentOfACrawlingHLSDownloadExits0AtOnce() throws {
        let child = try startCrawling("hls")
        let sent = ContinuousClock.now
        child.send("quit")
        assertEnds(child, with: 0, since: sent)
    }

    func testQuitMidFragmentOfACrawlingDASHDownloadExits0AtOnce() throws {
        let child = try startCrawling("dash")
        let sent = ContinuousClock.now
        child.send("quit")
        assertEnds(child, with: 0, since: sent)
    }

    func testSIGTERMMidFragmentOfACrawlingHLSDownloadExits143() throws {
        let child = try startCrawling("hls")
        let sent = ContinuousClock.now
        kill(child.process.processIdentifier, SIGTERM)
        assertEnds(child, with: ExitStatus.terminated, since: sent)
    }

    func testSIGINTMidFragmentOfACrawlingDASHDownloadExits130() throws {
        let child = try startCrawling("dash")
        let sent = ContinuousClock.now
        kill(child.process.processIdentifier, SIGINT)
        assertEnds(child, with: ExitStatus.interrupted, since: sent)
    }

    /// `next` leaves the crawling download for a 4 s local file; its end ends the queue: exit 0
    /// within its 4 s of playing and a bound's worth more.
    func testTheQueueEndsAfterNextLeavesACrawlingHLSDownload() throws {
        let child = try startCrawling("hls", more: [GstplayProcess.fixture("vp8-opus-4s.webm")])
        let sent = ContinuousClock.now
        child.send("next")
        assertEnds(child, with: 0, since: sent, bound: .seconds(4) + .seconds(3) + Self.endBound)
        XCTAssertEqual(child.jsonLines.filter { $0["event"] as? String == "eos" }.count, 1, child.stdout)
    }
}
