import Backend
import Foundation
import TestSupport
import XCTest

/// Adaptive streaming on real pipelines: `playbin` (legacy `hlsdemux`) against the local HLS
/// ladder served by `http_test_server.py`, with throttles and failures set during the test.
final class AdaptiveStreamingTests: XCTestCase {
    private var server: HTTPTestServer!

    override func setUpWithError() throws { server = try HTTPTestServer(hls: try HLSFixture.ensure()) }
    override func tearDown() { server.stop() }

    private func player(_ recorder: EventRecorder, _ policy: (inout AdaptivePolicy) -> Void = { _ in }) -> Player {
        Player.forAdaptiveTesting(recorder, policy)
    }

    func testStartsOnTheLowestVariantThenSwitchesUp() {
        let recorder = EventRecorder()
        let player = player(recorder)
        defer { player.shutdown() }
        player.load(server.url("/hls/vod-6/master.m3u8"))
        let variants = recorder.waitForValue("variants") { $0.variants }
        XCTAssertEqual(variants?.map(\.height), [240, 480, 720])
        // Up to 720p, maybe through 480p (the buffer guard, on a loaded machine): each switch carries its decision's reason.
        let up = recorder.waitForValue("a switch up to 720p", timeout: 15) { $0.switched.flatMap { $0.reason == .bandwidthUp && $0.to.height == 720 ? $0 : nil } }
        XCTAssertEqual(up?.to.height, 720, "a local link sustains the top variant")
        let segments = server.segments()
        XCTAssertEqual(segments.first?.variant, "240p", "\(segments.map(\.path))")
        let first = recorder.events.lazy.compactMap(\.switched).first
        XCTAssertEqual(first?.reason, .start)
        XCTAssertEqual(first?.to.height, 240)
        let info = player.adaptiveInfo
        XCTAssertEqual(info.currentVariant?.height, 720)
        XCTAssertGreaterThan(info.estimatedBandwidth ?? 0, 2_500_000)
        XCTAssertFalse(info.downloads.isEmpty)
        XCTAssertEqual(player.refreshStatistics().adaptive?.maxProfile, variants?.last?.bandwidth)
        XCTAssertNil(recorder.events.lazy.compactMap(\.error).first)
    }

    func testThrottleBelowTheMiddleVariantSwitchesDownWithinTwoSegments() {
        let recorder = EventRecorder()
        let player = player(recorder) { $0.start = .highest }
        defer { player.shutdown() }
        // 100 KB/s = 0.8 Mb/s, below the 480p variant (1.04 Mb/s): only 240p fits.
        server.throttle(matching: "/hls/", bytesPerSecond: 100_000)
        player.load(server.url("/hls/vod-6/master.m3u8"))
        let first = recorder.waitForValue("the start variant") { $0.switched }
        XCTAssertEqual(first?.to.height, 720, "start highest")
        let down = recorder.waitForValue("a switch down", timeout: 20) { $0.switched.flatMap { $0.reason == .bandwidthDown ? $0 : nil } }
        XCTAssertEqual(down?.to.height, 240)
        let top = server.segments().filter { $0.variant == "720p" }.count
        XCTAssertLessThanOrEqual(top, 2, "720p segments before the switch: \(server.segments().map(\.path))")
        XCTAssertLessThan(player.adaptiveInfo.estimatedBandwidth ?? .max, 1_036_982)
        XCTAssertNil(recorder.events.lazy.compactMap(\.error).first)
    }

    func testNearZeroBandwidthStallsBuffersAndRecoversWithoutError() {
        let recorder = EventRecorder()
        let player = player(recorder) { $0.minBufferSeconds = 4 }  // bounds the read-ahead: the stall comes sooner
        defer { player.shutdown() }
        player.load(server.url("/hls/vod-6/master.m3u8"))
        recorder.waitFor("playing", recorder.reachedState(.playing))
        server.throttle(matching: "/hls/", bytesPerSecond: 2_000)
        recorder.waitFor("a stall", timeout: 15) { $0.contains(where: \.isStallStart) }
        XCTAssertTrue(player.adaptiveInfo.stalled)
        recorder.waitFor("the buffering state", recorder.reachedState(.buffering))
        let stalledAt = recorder.count
        server.throttle(matching: "/hls/", bytesPerSecond: 0)
        recorder.waitFor("the stall to end", timeout: 15) { $0.dropFirst(stalledAt).contains(where: \.isStallEnd) }
        recorder.waitFor("playing again", timeout: 5) { events in
            events.dropFirst(stalledAt).contains { if case .stateChanged(_, .playing) = $0 { return true } else { return false } }
        }
        XCTAssertEqual(player.adaptiveInfo.stallCount, 1)
        XCTAssertGreaterThan(player.adaptiveInfo.stalledSeconds, 0)
        XCTAssertNil(recorder.events.lazy.compactMap(\.error).first)
        // Each stall edge follows the buffering level that made it (the feature observes the
        // level once the core has queued it, and publishes the edge after it).
        let events = recorder.events
        for index in events.indices where events[index].isStallStart || events[index].isStallEnd {
            guard index > 0, case .buffering(let percent) = events[index - 1] else { XCTFail("\(events[index]) not after a buffering level"); continue }
            XCTAssertEqual(percent == 100, events[index].isStallEnd, "\(events[index]) after buffering \(percent)%")
        }
    }

    func testA480pCapIsNeverExceeded() {
        let recorder = EventRecorder()
        let player = player(recorder) { $0.maxHeight = 480 }
        defer { player.shutdown() }
        player.load(server.url("/hls/vod-4/master.m3u8"))
        let up = recorder.waitForValue("the switch up to the cap", timeout: 15) { $0.switched.flatMap { $0.reason == .bandwidthUp ? $0 : nil } }
        XCTAssertEqual(up?.to.height, 480)
        recorder.waitFor("every segment requested", timeout: 15) { _ in self.server.segments().count >= 4 }
        let variants = Set(server.segments().compactMap(\.variant))
        XCTAssertFalse(variants.contains("720p"), "\(server.segments().map(\.path))")
        XCTAssertEqual(player.refreshStatistics().adaptive?.maxProfile, 1_036_982)
    }

    func testAPinnedVariantIsKeptUntilAuto() {
        let recorder = EventRecorder()
        let player = player(recorder) { $0.pinned = 1; $0.minBufferSeconds = 2 }  // a short read-ahead: the next request comes soon
        defer { player.shutdown() }
        player.load(server.url("/hls/vod/master.m3u8"))
        recorder.waitFor("playing", recorder.reachedState(.playing))
        recorder.waitFor("four segments", timeout: 10) { _ in self.server.segments().count >= 4 }
        XCTAssertEqual(Set(server.segments().compactMap(\.variant)), ["480p"], "\(server.segments().map(\.path))")
        XCTAssertEqual(player.adaptiveInfo.pinned, 1)
        XCTAssertEqual(player.adaptiveInfo.currentVariant?.height, 480)
        let mark = recorder.count
        player.pinVariant(nil)
        let auto = recorder.waitForValue("a switch after auto", timeout: 15, after: mark) { $0.switched }
        XCTAssertEqual(auto?.to.height, 720)
    }

    func testA404OnOneSegmentIsRetriedAndReported() {
        let recorder = EventRecorder()
        let player = player(recorder)
        defer { player.shutdown() }
        server.fail(matching: "segment00001.ts", status: 404, count: 1)
        player.load(server.url("/hls/vod-3/master.m3u8"))
        recorder.waitFor("the segment after it", timeout: 15) { events in
            self.server.segments().contains { $0.path.hasSuffix("segment00002.ts") } || events.contains { $0.error != nil }
        }
        XCTAssertNil(recorder.events.lazy.compactMap(\.error).first)
        let warning = recorder.events.lazy.compactMap { e -> PlayerError? in if case .warning(let w) = e, w.httpStatus == 404 { return w } else { return nil } }.first
        XCTAssertNotNil(warning, "the failed segment is reported")
        XCTAssertTrue(warning?.message.contains("segment00001.ts") ?? false, warning?.message ?? "")
        let requests = server.hlsRequests().filter { $0.path.hasSuffix("segment00001.ts") }.map(\.status)
        XCTAssertEqual(requests.prefix(2), [404, 200], "hlsdemux retries the segment")
        XCTAssertEqual(player.adaptiveInfo.failedRequests, 1)
    }

    func testA404OnTheMasterPlaylistIsAClearError() {
        let recorder = EventRecorder()
        let player = player(recorder)
        defer { player.shutdown() }
        player.load(server.url("/hls/vod/no-such-master.m3u8"))
        let error = recorder.waitForValue("error") { $0.error }
        XCTAssertEqual(error?.kind, .network)
        XCTAssertEqual(error?.httpStatus, 404)
        XCTAssertEqual(error?.message, "Not Found")
        XCTAssertEqual(player.state, .error)
        XCTAssertTrue(player.adaptiveInfo.variants.isEmpty)
    }

    func testALiveStreamAdvancesAndSeeksOnlyInsideItsWindow() {
        let recorder = EventRecorder()
        let player = player(recorder)
        defer { player.shutdown() }
        player.load(server.url("/hls/live-\(UUID().uuidString)/master.m3u8"))
        let info = recorder.waitForValue("media info") { e -> MediaInfo? in if case .mediaInfo(let i) = e { return i } else { return nil } }
        XCTAssertEqual(info?.isLive, true)
        XCTAssertNil(info?.duration)
        XCTAssertTrue(player.adaptiveInfo.isLive)
        let first = recorder.waitForValue("a position") { $0.position } ?? .zero
        recorder.waitFor("the position to advance 1 s", timeout: 5) { events in
            events.compactMap(\.position).contains { $0 >= first + MediaTime(seconds: 1) }
        }
        recorder.waitFor("the DVR window") { _ in player.adaptiveInfo.liveWindowEnd != nil }
        let window = player.adaptiveInfo
        let start = window.liveWindowStart ?? .zero, end = window.liveWindowEnd ?? .zero
        XCTAssertLessThan(start, end)
        let mark = recorder.count
        player.seek(to: MediaTime(seconds: 1000))
        let warning = recorder.waitForValue("the limit warning", after: mark) { e -> PlayerError? in
            if case .warning(let w) = e, w.kind == .invalidArgument { return w } else { return nil }
        }
        XCTAssertTrue(warning?.message.contains("outside the live window") ?? false, warning?.message ?? "")
        let landed = recorder.waitForValue("seek done", timeout: 10, after: mark) { $0.seekDone }
        XCTAssertNotNil(landed)
        if let landed { XCTAssertTrue(landed >= start && landed <= end + MediaTime(seconds: 4), "\(landed) in \(start)…\(end)") }
        XCTAssertNil(recorder.events.lazy.compactMap(\.error).first)
    }
}

extension PlayerEvent {
    var variants: [Variant]? { if case .variantsAvailable(let v)? = adaptive { return v } else { return nil } }
    var switched: (from: Variant?, to: Variant, reason: VariantSwitchReason)? {
        if case .variantSwitched(let from, let to, let reason)? = adaptive { return (from, to, reason) } else { return nil }
    }
    var isStallStart: Bool { if case .stallStarted? = adaptive { return true } else { return false } }
    var isStallEnd: Bool { if case .stallEnded? = adaptive { return true } else { return false } }
}
