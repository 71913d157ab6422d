@testable import BackendAdaptive
import Backend
import XCTest

/// The pure ABR rules: master playlist parsing, the bandwidth estimate, variant selection, caps,
/// pinning, the connection-speed mapping and stall tracking. No pipeline (URIs are joined by
/// GStreamer's `gst_uri_join_strings`).
final class AdaptivePolicyTests: XCTestCase {
    /// The ladder `make-fixtures.sh --hls` makes (figures from one run).
    static let master = """
        #EXTM3U
        #EXT-X-VERSION:3
        #EXT-X-STREAM-INF:BANDWIDTH=2503381,AVERAGE-BANDWIDTH=2421506,RESOLUTION=1280x720,CODECS="avc1.42c01f,mp4a.40.2"
        720p/playlist.m3u8
        #EXT-X-STREAM-INF:BANDWIDTH=364071,AVERAGE-BANDWIDTH=351714,RESOLUTION=426x240,CODECS="avc1.42c01f,mp4a.40.2"
        240p/playlist.m3u8

        #EXT-X-STREAM-INF:BANDWIDTH=1036982,AVERAGE-BANDWIDTH=1006758,RESOLUTION=854x480,CODECS="avc1.42c01f,mp4a.40.2"
        http://other.example/480p/playlist.m3u8
        """

    var ladder: [Variant] {
        guard case .master(let variants) = MasterPlaylist.parse(Self.master, baseURI: "http://h:1/hls/vod/master.m3u8?x=1") else {
            XCTFail("not a master playlist"); return []
        }
        return variants
    }

    func testMasterPlaylistIsParsedSortedAndResolved() {
        let v = ladder
        XCTAssertEqual(v.map(\.bandwidth), [364071, 1036982, 2503381])
        XCTAssertEqual(v.map(\.index), [0, 1, 2])
        XCTAssertEqual(v.map(\.height), [240, 480, 720])
        XCTAssertEqual(v[0].width, 426)
        XCTAssertEqual(v[0].averageBandwidth, 351714)
        XCTAssertEqual(v[0].codecs, "avc1.42c01f,mp4a.40.2", "a quoted value keeps its comma")
        XCTAssertEqual(v[0].uri, "http://h:1/hls/vod/240p/playlist.m3u8")
        XCTAssertEqual(v[1].uri, "http://other.example/480p/playlist.m3u8")
        XCTAssertEqual(v.map(\.label), ["240p 364 kb/s", "480p 1.0 Mb/s", "720p 2.5 Mb/s"])
    }

    func testMediaPlaylistsAndGarbage() {
        XCTAssertEqual(MasterPlaylist.parse("#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXTINF:2,\na.ts\n#EXT-X-ENDLIST\n", baseURI: "x"), .media(isLive: false))
        XCTAssertEqual(MasterPlaylist.parse("#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXTINF:2,\na.ts\n", baseURI: "x"), .media(isLive: true))
        XCTAssertEqual(MasterPlaylist.parse("<html>nope</html>", baseURI: "x"), .invalid)
        XCTAssertEqual(MasterPlaylist.parse("#EXTM3U\n#EXT-X-STREAM-INF:RESOLUTION=1x1\nno-bandwidth.m3u8\n", baseURI: "x"), .invalid)
        XCTAssertEqual(MasterPlaylist.resolve("/abs/p.m3u8", against: "http://h:1/a/b/m.m3u8"), "http://h:1/abs/p.m3u8")
    }

    func testEstimatorAveragesAndDropsAtOnceOnACollapse() {
        var e = BandwidthEstimator()
        XCTAssertNil(e.bitsPerSecond)
        e.add(bytes: 125_000, seconds: 1)              // 1 Mb/s
        XCTAssertEqual(e.bitsPerSecond ?? 0, 1_000_000, accuracy: 1)
        e.add(bytes: 250_000, seconds: 1)              // 2 Mb/s, averaged
        XCTAssertEqual(e.bitsPerSecond ?? 0, 1_500_000, accuracy: 1)
        e.add(bytes: 12_500, seconds: 1)               // 100 kb/s: less than half, taken as is
        XCTAssertEqual(e.bitsPerSecond ?? 0, 100_000, accuracy: 1)
        e.add(bytes: 1000, seconds: 0)                 // instantaneous: floored duration, no division by zero
        XCTAssertEqual(e.bitsPerSecond ?? 0, 0.5 * 1.6e6 + 0.5 * 100_000, accuracy: 1)
        e.reset()
        XCTAssertNil(e.bitsPerSecond)
    }

    func testStartsLowestByDefaultAndHighestOrDemuxerOnRequest() {
        var p = AdaptivePolicy()
        XCTAssertEqual(p.initialVariant(ladder), 0)
        XCTAssertEqual(p.select(ladder, current: nil, estimate: nil)?.index, 0)
        p.start = .highest
        XCTAssertEqual(p.initialVariant(ladder), 2)
        p.maxHeight = 480
        XCTAssertEqual(p.initialVariant(ladder), 1, "highest within the cap")
        p.start = .auto
        XCTAssertNil(p.initialVariant(ladder))
    }

    func testSwitchesByEstimateWithTheSafetyRatio() {
        let p = AdaptivePolicy()
        // 480p (1.04 Mb/s) needs 1.30 Mb/s of estimate at ratio 0.8.
        XCTAssertEqual(p.select(ladder, current: 0, estimate: 1_250_000)?.index, 0)
        XCTAssertEqual(p.select(ladder, current: 0, estimate: 1_300_000)?.index, 1)
        XCTAssertEqual(p.select(ladder, current: 0, estimate: 1_300_000)?.reason, .bandwidthUp)
        XCTAssertEqual(p.select(ladder, current: 0, estimate: 50e6)?.index, 2)
        XCTAssertEqual(p.select(ladder, current: 2, estimate: 480_000)?.index, 0)
        XCTAssertEqual(p.select(ladder, current: 2, estimate: 480_000)?.reason, .bandwidthDown)
        XCTAssertEqual(p.select(ladder, current: 2, estimate: 1_000)?.index, 0, "below every variant: the lowest")
        XCTAssertEqual(p.select(ladder, current: 1, estimate: nil)?.index, 1, "no estimate: keep")
    }

    func testCapsByBitrateAndHeight() {
        var p = AdaptivePolicy()
        p.maxHeight = 480
        XCTAssertEqual(p.allowed(ladder), [0, 1])
        XCTAssertEqual(p.select(ladder, current: 1, estimate: 50e6)?.index, 1)
        XCTAssertEqual(p.maxProfile(ladder)?.height, 480)
        XCTAssertEqual(p.select(ladder, current: 2, estimate: 50e6)?.reason, .cap, "a new cap moves off a variant above it")
        XCTAssertEqual(p.select(ladder, current: 2, estimate: nil)?.index, 1)
        p.maxHeight = nil
        p.maxBitrate = 500_000
        XCTAssertEqual(p.allowed(ladder), [0])
        p.maxBitrate = 1000
        XCTAssertEqual(p.allowed(ladder), [0], "a cap below everything still allows the lowest")
        XCTAssertEqual(p.allowed([]), [])
    }

    func testPinWinsAndAutoReturns() {
        var p = AdaptivePolicy()
        p.maxHeight = 240
        p.pinned = 2
        XCTAssertEqual(p.select(ladder, current: 0, estimate: 1_000)?.index, 2)
        XCTAssertEqual(p.select(ladder, current: 0, estimate: 1_000)?.reason, .pinned)
        XCTAssertEqual(p.maxProfile(ladder)?.index, 2)
        p.pinned = 7                                    // out of range: ignored
        XCTAssertEqual(p.select(ladder, current: 0, estimate: 50e6)?.index, 0)
        p.pinned = nil
        p.maxHeight = nil
        XCTAssertEqual(p.select(ladder, current: 0, estimate: 50e6)?.index, 2)
    }

    func testConnectionSpeedSelectsExactlyTheVariant() {
        let v = ladder
        for i in v.indices {
            let kbps = Int(AdaptivePolicy.connectionSpeed(selecting: i, of: v))
            // The demuxers pick the highest variant whose bitrate fits (either stated figure).
            let picked = v.lastIndex { max($0.bandwidth, $0.averageBandwidth ?? 0) <= kbps * 1000 } ?? 0
            XCTAssertEqual(picked, i, "kbps \(kbps)")
            let pickedByAverage = v.lastIndex { ($0.averageBandwidth ?? $0.bandwidth) <= kbps * 1000 } ?? 0
            XCTAssertEqual(pickedByAverage, i, "kbps \(kbps)")
        }
        XCTAssertEqual(AdaptivePolicy.connectionSpeed(selecting: 5, of: v), 0)
    }

    func testStallsOnlyAfterPlaybackStartedAndEndAtFull() {
        var s = StallTracker()
        XCTAssertNil(s.buffering(percent: 10, now: 0), "the initial fill is not a stall")
        XCTAssertNil(s.buffering(percent: 100, now: 1))
        s.played()
        XCTAssertEqual(s.buffering(percent: 40, now: 5), .started)
        XCTAssertNil(s.buffering(percent: 20, now: 5.5), "one stall, not one per level")
        XCTAssertTrue(s.isStalled)
        XCTAssertEqual(s.stalledSeconds(now: 6), 1, accuracy: 1e-9)
        XCTAssertEqual(s.buffering(percent: 100, now: 7.5), .ended(seconds: 2.5))
        XCTAssertEqual(s.buffering(percent: 0, now: 9), .started)
        XCTAssertEqual(s.finish(now: 10), .ended(seconds: 1))
        XCTAssertNil(s.finish(now: 11))
        XCTAssertEqual(s.count, 2)
        XCTAssertEqual(s.total, 3.5, accuracy: 1e-9)
    }

    func testFrozenPositionWatchHoldsUntilTheMinimumBuffer() {
        XCTAssertNil(StallTracker.watchLevel(frozenFor: 0.5, bufferSeconds: 0, minBuffer: 4, holding: false, remaining: 10))
        XCTAssertEqual(StallTracker.watchLevel(frozenFor: 1.0, bufferSeconds: 0, minBuffer: 4, holding: false, remaining: 10), 0)
        XCTAssertNil(StallTracker.watchLevel(frozenFor: 3, bufferSeconds: 2, minBuffer: 4, holding: false, remaining: 2),
                     "everything left is buffered: the end, not a stall")
        XCTAssertEqual(StallTracker.watchLevel(frozenFor: 0, bufferSeconds: 1, minBuffer: 4, holding: true, remaining: 10), 25)
        XCTAssertEqual(StallTracker.watchLevel(frozenFor: 0, bufferSeconds: 4, minBuffer: 4, holding: true, remaining: 10), 100)
        XCTAssertEqual(StallTracker.watchLevel(frozenFor: 0, bufferSeconds: 1, minBuffer: 4, holding: true, remaining: 1.1), 100)
        XCTAssertEqual(StallTracker.watchLevel(frozenFor: 0, bufferSeconds: 1, minBuffer: 4, holding: true, remaining: nil), 25, "live")
    }
}
