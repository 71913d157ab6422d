import Backend
import Foundation
@testable import BackendControl
@testable import gstplay
import XCTest

/// The adaptive-streaming CLI pieces: options, the `variant` command, wire lines, status line.
final class AdaptiveCLITests: XCTestCase {
    func testOptionsBecomeThePolicy() throws {
        XCTAssertEqual(AdaptiveOptions.bitrate("800000"), 800_000)
        XCTAssertEqual(AdaptiveOptions.bitrate("800k"), 800_000)
        XCTAssertEqual(AdaptiveOptions.bitrate("1.5M"), 1_500_000)
        XCTAssertNil(AdaptiveOptions.bitrate("fast"))
        XCTAssertNil(AdaptiveOptions.bitrate("-3"))
        let options = try GstplayCommand.parse(["--max-bitrate", "1.2M", "--max-height", "480", "--start-variant", "HIGHEST", "x.m3u8"]).makeOptions()
        XCTAssertEqual(options.adaptivePolicy.maxBitrate, 1_200_000)
        XCTAssertEqual(options.adaptivePolicy.maxHeight, 480)
        XCTAssertEqual(options.adaptivePolicy.start, .highest)
        XCTAssertEqual(options.standardFeatures().adaptivePolicy, options.adaptivePolicy)
        XCTAssertThrowsError(try GstplayCommand.parse(["--start-variant", "middle", "x"]).makeOptions())
        XCTAssertThrowsError(try GstplayCommand.parse(["--max-height", "0", "x"]).makeOptions())
        XCTAssertThrowsError(try GstplayCommand.parse(["--max-bitrate", "0", "x"]).makeOptions())
        XCTAssertEqual(options.adaptivePolicy.rule, .bufferAware)
        XCTAssertEqual(try GstplayCommand.parse(["--abr-rule", "Throughput", "x"]).makeOptions().adaptivePolicy.rule, .throughput)
        XCTAssertEqual(try GstplayCommand.parse(["--abr-rule", "buffer", "x"]).makeOptions().adaptivePolicy.rule, .bufferAware)
        XCTAssertThrowsError(try GstplayCommand.parse(["--abr-rule", "bola", "x"]).makeOptions())
    }

    func testVariantCommand() {
        XCTAssertEqual(try ConsoleCommand.parse("variant 2").get(), .variant(2))
        XCTAssertEqual(try ConsoleCommand.parse("VARIANT auto").get(), .variant(nil))
        XCTAssertEqual(try ConsoleCommand.parse("variants").get(), .variants)
        XCTAssertThrowsError(try ConsoleCommand.parse("variant -1").get())
        XCTAssertThrowsError(try ConsoleCommand.parse("variant").get())
        XCTAssertThrowsError(try ConsoleCommand.parse("variants 1").get())
    }

    /// The wire line of an adaptive event, as the Backend delivers it (``PlayerEvent/feature(_:)``).
    private func line(for event: AdaptiveEvent) -> String { WireEvents.line(for: .feature(FeatureEvent(event))) }

    func testWireLinesAndStatusLine() {
        let low = Variant(index: 0, bandwidth: 364_071, averageBandwidth: 351_714, width: 426, height: 240, codecs: "avc1.42c01f,mp4a.40.2", uri: "http://h/240p/p.m3u8")
        let mid = Variant(index: 1, bandwidth: 1_036_982, width: 854, height: 480, uri: "http://h/480p/p.m3u8")
        XCTAssertEqual(line(for: .variantSwitched(from: low, to: mid, reason: .bandwidthUp)),
                       #"{"event":"variant","from":0,"reason":"bandwidthUp","to":{"average_bandwidth":null,"bandwidth":1036982,"codecs":null,"height":480,"index":1,"label":"480p 1.0 Mb/s","uri":"http://h/480p/p.m3u8","width":854}}"#)
        XCTAssertTrue(line(for: .variantsAvailable([low, mid])).hasPrefix(#"{"event":"variants","variants":[{"average_bandwidth":351714,"#))
        XCTAssertEqual(line(for: .stallEnded(seconds: 1.23456)), #"{"event":"stall","phase":"ended","seconds":1.235}"#)
        XCTAssertEqual(line(for: .stallStarted), #"{"event":"stall","phase":"started","seconds":null}"#)
        // The live catch-up (additive: a new event, a new variant reason).
        XCTAssertEqual(line(for: .liveCatchUp(latency: 7.28811)), #"{"event":"live-catch-up","latency":7.288}"#)
        XCTAssertTrue(line(for: .variantSwitched(from: mid, to: low, reason: .liveCatchUp)).contains(#""reason":"liveCatchUp""#))
        XCTAssertEqual(AdaptiveCommands.note(for: .liveCatchUp(latency: 7.28811)), "Live: 7.3 s behind the live edge, catching up")
        var status = StatusLine()
        var info = AdaptiveInfo()
        info.variants = [low, mid]
        info.current = 1
        status.snapshot.features[AdaptiveInfo.self] = info        // the status line reads the variant from the snapshot
        XCTAssertTrue(status.extras.contains("480p 1.0 Mb/s"))
        var statistics = PlayerStatistics()
        XCTAssertFalse(WireEvents.line(for: .statistics(statistics)).contains("abr"), "no key for media that is not adaptive")
        statistics.adaptive = ABRMetrics()
        statistics.adaptive?.maxProfile = 2_503_381
        XCTAssertTrue(WireEvents.line(for: .statistics(statistics)).contains(#""abr":{"max_profile":2503381,"requested_profile":null"#))
    }
}
