@testable import BackendAdaptive
import Backend
import XCTest

/// The pure pieces of the buffer-aware ABR rule: the harmonic-mean throughput window,
/// the fragment length, the rule's guards, and the selector running either rule. No pipeline.
final class BufferAwareRuleTests: XCTestCase {
    /// The fixture ladder (peak / average bits/s of `make-fixtures.sh --hls`).
    let ladder = [
        Variant(index: 0, bandwidth: 364_071, averageBandwidth: 351_714, height: 240, uri: "http://h/hls/vod/240p/playlist.m3u8"),
        Variant(index: 1, bandwidth: 1_036_982, averageBandwidth: 1_006_758, height: 480, uri: "http://h/hls/vod/480p/playlist.m3u8"),
        Variant(index: 2, bandwidth: 2_503_381, averageBandwidth: 2_421_506, height: 720, uri: "http://h/hls/vod/720p/playlist.m3u8"),
    ]

    func testTheHarmonicMeanCoversTheLastFiveDownloads() throws {
        var history = ThroughputHistory()
        XCTAssertNil(history.harmonicMean)
        XCTAssertEqual(history.fragmentSeconds, ThroughputHistory.defaultFragmentSeconds)
        history.add(bytes: 125_000, seconds: 1, bitrate: nil)       // 1 Mb/s
        history.add(bytes: 500_000, seconds: 1, bitrate: nil)       // 4 Mb/s
        XCTAssertEqual(try XCTUnwrap(history.harmonicMean), 1_600_000, accuracy: 1e-6, "2 / (1/1M + 1/4M)")
        history.add(bytes: 0, seconds: 1, bitrate: nil)             // ignored
        history.add(bytes: 10, seconds: -1, bitrate: nil)           // ignored
        XCTAssertEqual(history.samples.count, 2)
        for _ in 0..<4 { history.add(bytes: 250_000, seconds: 1, bitrate: nil) }  // 2 Mb/s × 4 pushes the 1 Mb/s one out
        XCTAssertEqual(history.samples.count, ThroughputHistory.capacity)
        XCTAssertEqual(try XCTUnwrap(history.harmonicMean), 5 / (1 / 4e6 + 4 / 2e6), accuracy: 1e-6)
        // One burst cannot lift the mean much; one slow fragment pulls it down.
        var burst = ThroughputHistory()
        for _ in 0..<4 { burst.add(bytes: 250_000, seconds: 1, bitrate: nil) }
        burst.add(bytes: 250_000, seconds: 0, bitrate: nil)         // floored at 5 ms: 400 Mb/s
        XCTAssertLessThan(try XCTUnwrap(burst.harmonicMean), 2_600_000)
        burst.add(bytes: 250_000, seconds: 4, bitrate: nil)         // 0.5 Mb/s
        XCTAssertLessThan(try XCTUnwrap(burst.harmonicMean), 1_700_000)
    }

    func testTheFragmentLengthComesFromBytesAndTheVariantsBitrate() {
        var history = ThroughputHistory()
        history.add(bytes: 87_984, seconds: 0.3, bitrate: 351_714)    // a 240p fixture segment: 2.0 s
        history.add(bytes: 605_000, seconds: 2.4, bitrate: 2_421_506) // a 720p one: 2.0 s
        history.add(bytes: 1_000, seconds: 0.1, bitrate: nil)          // unknown variant: not counted
        XCTAssertEqual(history.fragmentSeconds, 2.0, accuracy: 0.02)
        history.reset()
        history.add(bytes: 10_000_000, seconds: 1, bitrate: 1_000)     // absurd: clamped
        XCTAssertEqual(history.fragmentSeconds, 20)
    }

    private func rule(_ configure: (inout AdaptivePolicy) -> Void = { _ in }) -> BufferAwareRule {
        var policy = AdaptivePolicy()
        configure(&policy)
        return BufferAwareRule(policy: policy)
    }

    func testNoSwitchUpTheBufferCannotAbsorb() throws {
        let r = rule()
        // 2 Mb/s: the throughput rule wants 480p (1.6 Mb/s budget); one 480p fragment takes ~1.04 s.
        XCTAssertEqual(r.select(ladder, current: 0, estimate: 2e6, bufferSeconds: 2.0, fragmentSeconds: 2)?.index, 0, "2.0 - 1.04 < 1.5")
        XCTAssertEqual(r.select(ladder, current: 0, estimate: 2e6, bufferSeconds: 3.0, fragmentSeconds: 2)?.index, 1)
        XCTAssertEqual(r.select(ladder, current: 0, estimate: 2e6, bufferSeconds: 3.0, fragmentSeconds: 2)?.reason, .bandwidthUp)
        // 6 Mb/s: 720p takes ~0.83 s a fragment, 480p ~0.35 s: the highest that leaves 1.5 s.
        XCTAssertEqual(r.select(ladder, current: 0, estimate: 6e6, bufferSeconds: 2.5, fragmentSeconds: 2)?.index, 2)
        XCTAssertEqual(r.select(ladder, current: 0, estimate: 6e6, bufferSeconds: 2.2, fragmentSeconds: 2)?.index, 1)
        XCTAssertEqual(r.select(ladder, current: 0, estimate: 6e6, bufferSeconds: 1.7, fragmentSeconds: 2)?.index, 0)
        XCTAssertEqual(r.select(ladder, current: 1, estimate: 6e6, bufferSeconds: 1.7, fragmentSeconds: 2)?.index, 1, "the guard never switches down")
        // Longer fragments need more buffer.
        XCTAssertEqual(r.select(ladder, current: 0, estimate: 6e6, bufferSeconds: 3.0, fragmentSeconds: 6)?.index, 1)
        let after = BufferAwareRule.bufferAfterFragment(of: ladder[2], bufferSeconds: 3, estimate: 5e6, fragmentSeconds: 2)
        XCTAssertEqual(after, 3 - 2_503_381 * 2 / 5e6, accuracy: 1e-9)
    }

    /// The climb (ADR-003, "the climb"): over a healthy buffer an up-switch may be taken on the
    /// last ``ThroughputHistory/recentCount`` fragments, one rung at a time, while the guard keeps
    /// the window's estimate; the current variant is kept while the recent fragments fit it.
    func testAHealthyBufferClimbsOnTheRecentFragmentsOneRungAtATime() throws {
        var history = ThroughputHistory()
        for _ in 0..<4 { history.add(bytes: 75_000, seconds: 1, bitrate: nil) }     // 600 kbit/s
        for _ in 0..<2 { history.add(bytes: 312_500, seconds: 1, bitrate: nil) }    // 2500 kbit/s
        let slow = try XCTUnwrap(history.harmonicMean)
        let recent = try XCTUnwrap(history.recentHarmonicMean)
        XCTAssertEqual(slow, 5 / (3 / 6e5 + 2 / 2.5e6), accuracy: 1e-6, "H(600, 600, 600, 2500, 2500)")
        XCTAssertEqual(recent, 2.5e6, accuracy: 1e-6, "the last two")
        XCTAssertLessThan(slow * 0.8, Double(ladder[1].bandwidth), "the window alone keeps 240p")
        let r = rule()
        let cushion = BufferAwareRule.climbCushionFragments * 2
        let up = r.select(ladder, current: 0, estimate: slow, bufferSeconds: cushion + 0.5, fragmentSeconds: 2, recentEstimate: recent)
        XCTAssertEqual(up?.index, 1); XCTAssertEqual(up?.reason, .bandwidthUp)
        XCTAssertEqual(r.select(ladder, current: 0, estimate: slow, bufferSeconds: cushion - 0.5, fragmentSeconds: 2,
                                recentEstimate: recent)?.index, 0, "under the cushion the window decides")
        XCTAssertEqual(r.select(ladder, current: 0, estimate: slow, bufferSeconds: 8, fragmentSeconds: 2,
                                recentEstimate: 1e8)?.index, 1, "one rung at a time")
        XCTAssertEqual(r.select(ladder, current: 0, estimate: slow, bufferSeconds: 8, fragmentSeconds: 2)?.index, 0, "no recent estimate: as before")
        // The climb asks a wider margin of two fragments than of five: on a 3000 kbit/s link two
        // small fragments that came in a burst (3.3 Mb/s) do not take 720p (2.5 Mb/s); 3.7 Mb/s does.
        XCTAssertEqual(r.select(ladder, current: 1, estimate: 2.8e6, bufferSeconds: 6, fragmentSeconds: 2, recentEstimate: 3.3e6)?.index, 1)
        XCTAssertEqual(r.select(ladder, current: 1, estimate: 2.8e6, bufferSeconds: 6, fragmentSeconds: 2, recentEstimate: 3.7e6)?.index, 2)
        // The guard keeps the window's estimate: at 600 kbit/s a 480p fragment takes 3.5 s.
        XCTAssertEqual(r.select(ladder, current: 0, estimate: 6e5, bufferSeconds: 4.5, fragmentSeconds: 2, recentEstimate: recent)?.index, 0)
        // Kept while the recent fragments fit it (the window still holds the slow ones)…
        XCTAssertEqual(r.select(ladder, current: 1, estimate: slow, bufferSeconds: 2.5, fragmentSeconds: 2, recentEstimate: recent)?.index, 1)
        // …and down as before when they do not, or under one fragment of buffer.
        XCTAssertEqual(r.select(ladder, current: 1, estimate: slow, bufferSeconds: 6, fragmentSeconds: 2, recentEstimate: 5e5)?.index, 0)
        XCTAssertEqual(r.select(ladder, current: 1, estimate: slow, bufferSeconds: 0.5, fragmentSeconds: 2, recentEstimate: recent)?.index, 0)
    }

    /// The same climb through the selector: 240p fragments at 600 then 2500 kbit/s over a deep
    /// buffer switch up on the second fast one, the window of five still holding three slow ones.
    func testTheSelectorClimbsOnTheSecondFastFragmentOverADeepBuffer() throws {
        let selector = VariantSelector(policy: AdaptivePolicy())
        XCTAssertEqual(selector.start(with: ladder)?.index, 0)
        var cumulative = 0
        func fragment(_ n: Int, seconds: Double) -> UInt32? {
            cumulative += 87_984
            return selector.fragmentDownloaded(uri: "http://h/hls/vod/240p/segment\(String(format: "%05d", n)).ts",
                                               cumulativeBytes: cumulative, seconds: seconds, bufferSeconds: 6.5)
        }
        for n in 0..<4 { XCTAssertNil(fragment(n, seconds: 87_984 * 8 / 6e5)) }
        XCTAssertNil(fragment(4, seconds: 87_984 * 8 / 2.5e6), "one fast fragment is not enough")
        XCTAssertEqual(fragment(5, seconds: 87_984 * 8 / 2.5e6), AdaptivePolicy.connectionSpeed(selecting: 1, of: ladder))
        let up = try XCTUnwrap(selector.takeDecisions().last)
        XCTAssertEqual(up.to, 1); XCTAssertEqual(up.reason, .bandwidthUp)
        XCTAssertLessThan(try XCTUnwrap(up.estimate) * 0.8, Double(ladder[1].bandwidth), "recorded: the window's estimate, the guard's")
    }

    func testEmergencySwitchDownUnderOneFragment() throws {
        let r = rule()
        // 6 Mb/s would keep 720p; under one fragment the budget shrinks with the buffer.
        XCTAssertEqual(r.select(ladder, current: 2, estimate: 6e6, bufferSeconds: 3.0, fragmentSeconds: 2)?.index, 2)
        XCTAssertEqual(r.select(ladder, current: 2, estimate: 6e6, bufferSeconds: 0.8, fragmentSeconds: 2)?.index, 1)
        XCTAssertEqual(r.select(ladder, current: 2, estimate: 6e6, bufferSeconds: 0.8, fragmentSeconds: 2)?.reason, .bandwidthDown)
        XCTAssertEqual(r.select(ladder, current: 2, estimate: 6e6, bufferSeconds: 0.2, fragmentSeconds: 2)?.index, 0)
        XCTAssertEqual(r.select(ladder, current: 1, estimate: 6e6, bufferSeconds: 0, fragmentSeconds: 2)?.index, 0)
        // A falling estimate switches down whatever the buffer.
        XCTAssertEqual(r.select(ladder, current: 2, estimate: 9e5, bufferSeconds: 5, fragmentSeconds: 2)?.index, 0)
    }

    func testStartPinsCapsAndNoBufferFollowThePolicy() {
        XCTAssertEqual(rule().select(ladder, current: nil, estimate: nil, bufferSeconds: nil, fragmentSeconds: 2)?.index, 0, "start on the lowest")
        XCTAssertEqual(rule().select(ladder, current: 0, estimate: nil, bufferSeconds: 4, fragmentSeconds: 2)?.index, 0, "no estimate: stay")
        XCTAssertEqual(rule { $0.start = .highest }.select(ladder, current: nil, estimate: nil, bufferSeconds: nil, fragmentSeconds: 2)?.index, 2)
        let pinned = rule { $0.pinned = 2 }.select(ladder, current: 0, estimate: 1e5, bufferSeconds: 0, fragmentSeconds: 2)
        XCTAssertEqual(pinned?.index, 2); XCTAssertEqual(pinned?.reason, .pinned)
        let capped = rule { $0.maxHeight = 480 }
        XCTAssertEqual(capped.select(ladder, current: 1, estimate: 1e8, bufferSeconds: 5, fragmentSeconds: 2)?.index, 1)
        XCTAssertEqual(capped.select(ladder, current: 2, estimate: 1e8, bufferSeconds: 5, fragmentSeconds: 2)?.reason, .cap)
        // Without a buffer reading the throughput decision stands.
        XCTAssertEqual(rule().select(ladder, current: 0, estimate: 6e6, bufferSeconds: nil, fragmentSeconds: 2)?.index, 2)
    }

    /// Both rules through the selector, fed the same fragments: `.throughput` is seed 004's EWMA
    /// rule (up at once), `.bufferAware` waits for the buffer; each decision is recorded.
    func testTheSelectorRunsTheRuleInForceAndRecordsItsDecisions() throws {
        func run(_ rule: ABRRule, buffer: Double) -> (VariantSelector, UInt32?) {
            var policy = AdaptivePolicy()
            policy.rule = rule
            let selector = VariantSelector(policy: policy)
            XCTAssertEqual(selector.start(with: ladder)?.index, 0)
            // One 240p fragment (88 kB) in 0.35 s: ~2 Mb/s.
            let speed = selector.fragmentDownloaded(uri: "http://h/hls/vod/240p/segment00000.ts", cumulativeBytes: 87_984,
                                                    seconds: 0.35, bufferSeconds: buffer)
            return (selector, speed)
        }
        let (throughput, up) = run(.throughput, buffer: 1.9)
        XCTAssertEqual(throughput.applied?.index, 1, "seed 004: 2 Mb/s × 0.8 fits 480p")
        XCTAssertEqual(up, AdaptivePolicy.connectionSpeed(selecting: 1, of: ladder))
        let (buffered, stay) = run(.bufferAware, buffer: 1.9)
        XCTAssertNil(stay, "1.9 s of buffer cannot absorb a 480p fragment at 2 Mb/s")
        XCTAssertEqual(buffered.applied?.index, 0)
        let (_, later) = run(.bufferAware, buffer: 3.5)
        XCTAssertEqual(later, AdaptivePolicy.connectionSpeed(selecting: 1, of: ladder))
        let decisions = throughput.takeDecisions()
        XCTAssertEqual(decisions.map(\.to), [0, 1])
        XCTAssertEqual(decisions.last?.reason, .bandwidthUp)
        XCTAssertEqual(decisions.last?.bufferSeconds, 1.9)
        XCTAssertEqual(decisions.last?.rule, .throughput)
        XCTAssertEqual(try XCTUnwrap(decisions.last?.fragmentSeconds), 2.0, accuracy: 0.01)
        XCTAssertTrue(throughput.takeDecisions().isEmpty, "taken once")
        XCTAssertEqual(try XCTUnwrap(buffered.estimate), 87_984 * 8 / 0.35, accuracy: 1)
    }
}
