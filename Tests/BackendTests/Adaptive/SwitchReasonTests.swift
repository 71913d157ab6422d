@testable import BackendAdaptive
import XCTest

/// DASH: a variant the ABR asked for and left again after one fragment. `dashdemux`
/// tells a representation switch only by the segment's directory, which the loop thread reads
/// after the demuxer's thread already made the next decision; the switch must still carry the
/// reason of the decision that asked for it (it was reported as the demuxer's own choice, so a
/// frontend saw no `bandwidthUp` at all when 720p was played for one fragment).
final class SwitchReasonTests: XCTestCase {
    /// The fixture ladder's DASH rendition (Fixtures/make-fixtures.sh --hls): 240p, 480p, 720p.
    private let ladder = [
        Variant(index: 0, bandwidth: 364_071, width: 426, height: 240, codecs: nil, uri: "http://h/hls/vod/240p/segment$Number%05d$.ts"),
        Variant(index: 1, bandwidth: 1_036_982, width: 854, height: 480, codecs: nil, uri: "http://h/hls/vod/480p/segment$Number%05d$.ts"),
        Variant(index: 2, bandwidth: 2_503_381, width: 1280, height: 720, codecs: nil, uri: "http://h/hls/vod/720p/segment$Number%05d$.ts"),
    ]

    func testADownloadCarriesTheReasonOfTheDecisionThatAskedForIt() throws {
        let selector = VariantSelector(policy: AdaptivePolicy())
        XCTAssertEqual(selector.start(with: ladder)?.index, 0)
        // 240p segment 0 (88 kB) in 0.1 s with 5 s buffered: ~7 Mb/s, up to 720p.
        XCTAssertNotNil(selector.fragmentDownloaded(uri: "http://h/hls/vod/240p/segment00000.ts", cumulativeBytes: 87_984, seconds: 0.1,
                                                    bufferSeconds: 5, counting: .perStream))
        XCTAssertEqual(selector.applied, VariantSelector.Applied(index: 2, reason: .bandwidthUp))
        // 720p segment 1 (626 kB, counted on across representations) in 8 s: ~0.6 Mb/s, down to 240p
        // before the loop thread has seen the 720p download.
        XCTAssertNotNil(selector.fragmentDownloaded(uri: "http://h/hls/vod/720p/segment00001.ts", cumulativeBytes: 87_984 + 626_000, seconds: 8,
                                                    bufferSeconds: 1, counting: .perStream))
        XCTAssertEqual(selector.applied?.index, 0)
        let downloads = selector.takeDownloads()
        XCTAssertEqual(downloads.map(\.segment.variant), [0, 2])
        XCTAssertEqual(downloads.map(\.reason), [.start, .bandwidthUp], "720p was asked for by a bandwidthUp decision")
        XCTAssertEqual(downloads.last?.segment.bytes, 626_000)
    }

    /// HLS: `hlsdemux` fetches the media playlist of the variant asked for right after the
    /// decision; the loop thread reads that message later, maybe after the next decision.
    func testAPlaylistFetchCarriesTheReasonOfTheDecisionInForceThen() throws {
        let hls = ladder.map { v in Variant(index: v.index, bandwidth: v.bandwidth, uri: "http://h/hls/vod/\(v.height ?? 0)p/index.m3u8") }
        let selector = VariantSelector(policy: AdaptivePolicy())
        XCTAssertEqual(selector.start(with: hls)?.index, 0)
        XCTAssertNotNil(selector.fragmentDownloaded(uri: "http://h/hls/vod/240p/segment00000.ts", cumulativeBytes: 87_984, seconds: 0.1, bufferSeconds: 5))
        selector.playlistFetched(uri: hls[2].uri)
        XCTAssertNotNil(selector.fragmentDownloaded(uri: "http://h/hls/vod/720p/segment00001.ts", cumulativeBytes: 626_000, seconds: 8, bufferSeconds: 1))
        selector.playlistFetched(uri: hls[0].uri)
        XCTAssertEqual(selector.takePlaylistReason(uri: hls[2].uri), .bandwidthUp)
        XCTAssertEqual(selector.takePlaylistReason(uri: hls[0].uri), .bandwidthDown)
        XCTAssertNil(selector.takePlaylistReason(uri: hls[0].uri), "taken once")
        XCTAssertNil(selector.takePlaylistReason(uri: hls[1].uri), "never fetched")
    }

    /// HLS: the playlist message is posted once the playlist downloaded, which can be after a
    /// live catch-up restarted the ABR on 240p (seen in LiveEdgeABRTests' outage case under `make
    /// test`: "480p (demuxer)"); the fetch is still the bandwidthUp decision's.
    func testAPlaylistFetchedAfterACatchUpKeepsTheReasonOfTheDecisionThatAskedForIt() throws {
        let hls = ladder.map { v in Variant(index: v.index, bandwidth: v.bandwidth, uri: "http://h/hls/live/\(v.height ?? 0)p/index.m3u8") }
        let selector = VariantSelector(policy: AdaptivePolicy())
        XCTAssertEqual(selector.start(with: hls)?.index, 0)
        XCTAssertNotNil(selector.fragmentDownloaded(uri: "http://h/hls/live/240p/segment00000.ts", cumulativeBytes: 87_984, seconds: 0.1, bufferSeconds: 5))
        XCTAssertEqual(selector.applied?.reason, .bandwidthUp)
        selector.restartForCatchUp()
        XCTAssertEqual(selector.applied, VariantSelector.Applied(index: 0, reason: .liveCatchUp))
        let upTo = try XCTUnwrap(selector.takeDecisions().last?.to)
        selector.playlistFetched(uri: hls[upTo].uri)
        selector.playlistFetched(uri: hls[0].uri)
        XCTAssertEqual(selector.takePlaylistReason(uri: hls[upTo].uri), .bandwidthUp)
        XCTAssertEqual(selector.takePlaylistReason(uri: hls[0].uri), .liveCatchUp)
    }
}
