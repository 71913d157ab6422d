@testable import BackendAdaptive
import Backend
import XCTest

/// `fragment-size` as the legacy demuxers count it (``FragmentSizeCounting``), with the counts
/// seen on the fixture ladder (`gst-launch-1.0 -m playbin`, 2026-11-25): DASH 240p segment 0 =
/// 87 984, then 480p segment 1 = 337 648 (its own 249 664 on top). Pure.
final class FragmentSizeCountingTests: XCTestCase {
    func testTheDemuxerSaysHowItCounts() {
        XCTAssertEqual(FragmentSizeCounting(demuxer: "dashdemux"), .perStream)
        XCTAssertEqual(FragmentSizeCounting(demuxer: "hlsdemux"), .perVariant)
        XCTAssertEqual(FragmentSizeCounting(demuxer: nil), .perVariant)
    }

    func testPerStreamSubtractsAcrossAVariantSwitchPerVariantRestarts() {
        let last: (variant: Int?, bytes: Int)? = (0, 87_984)
        XCTAssertEqual(FragmentSizeCounting.perStream.fragmentBytes(cumulative: 337_648, variant: 1, last: last), 249_664)
        XCTAssertEqual(FragmentSizeCounting.perVariant.fragmentBytes(cumulative: 249_664, variant: 1, last: last), 249_664,
                       "hlsdemux: the new variant's stream counts from zero")
        XCTAssertEqual(FragmentSizeCounting.perVariant.fragmentBytes(cumulative: 175_968, variant: 0, last: last), 87_984)
        XCTAssertEqual(FragmentSizeCounting.perStream.fragmentBytes(cumulative: 87_984, variant: 0, last: nil), 87_984, "the first")
        XCTAssertEqual(FragmentSizeCounting.perStream.fragmentBytes(cumulative: 50_000, variant: 0, last: (1, 900_000)), 50_000,
                       "a count that went down restarted (a new stream)")
    }

    /// The selector on a DASH session that went 240p → 720p → 240p on a 600 kbit/s link: the
    /// estimate stays near the link, where reading the count per variant made the first 240p
    /// fragment after the switch down worth the whole session (a bug seen on DASH runs).
    func testTheSelectorEstimatesADashSwitchDownFromThisFragmentsBytes() throws {
        let ladder = [Variant(index: 0, bandwidth: 364_071, uri: "http://h/hls/vod/240p/segment$Number%05d$.ts"),
                      Variant(index: 1, bandwidth: 1_036_982, uri: "http://h/hls/vod/480p/segment$Number%05d$.ts"),
                      Variant(index: 2, bandwidth: 2_503_381, uri: "http://h/hls/vod/720p/segment$Number%05d$.ts")]
        func estimate(_ counting: FragmentSizeCounting) -> Double? {
            var policy = AdaptivePolicy()
            policy.rule = .throughput
            let selector = VariantSelector(policy: policy)
            _ = selector.start(with: ladder)
            // Each fragment 75 000 bytes in 1 s: 600 kbit/s.
            var total = 0
            for (n, variant) in ["240p", "720p", "720p", "240p"].enumerated() {
                total += 75_000
                _ = selector.fragmentDownloaded(uri: "http://h/hls/vod/\(variant)/segment0000\(n).ts", cumulativeBytes: total,
                                                seconds: 1, bufferSeconds: 4, counting: counting)
            }
            return selector.estimate
        }
        XCTAssertEqual(try XCTUnwrap(estimate(.perStream)), 600_000, accuracy: 1)
        XCTAssertGreaterThan(try XCTUnwrap(estimate(.perVariant)), 1_000_000, "read per variant, the switch counts all 300 kB")
    }
}
