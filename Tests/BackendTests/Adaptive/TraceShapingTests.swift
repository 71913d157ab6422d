import Foundation
import StreamingQoE
import TestSupport
import XCTest

/// The trace-driven network of the test server: a real transfer's bytes over time
/// follow the trace (outage included), an added RTT delays the first byte, and the committed
/// traces are what their generator makes.
final class TraceShapingTests: XCTestCase {
    func testATransferFollowsTheTraceAndItsRTT() throws {
        let server = try HTTPTestServer()
        defer { server.stop() }
        // 1 s at 800 kbit/s (100 kB), a 0.5 s outage, then 1600 kbit/s (200 kB/s).
        let trace = try XCTUnwrap(BandwidthTrace(steps: [.init(seconds: 1, kbps: 800), .init(seconds: 0.5, kbps: 0), .init(seconds: 1, kbps: 1600)]))
        let set = ContinuousClock.now
        XCTAssertNotNil(server.shape(to: trace, rttMilliseconds: 200))
        let download = TimedDownload(server.url("/file/h264-ac3-10s.mkv"), from: set)  // 653 kB: outlasts the 2.5 s
        defer { download.cancel() }
        XCTAssertTrue(eventually(timeout: .seconds(10)) { download.bytes(at: 2.6) > 0 && set.duration(to: .now) > .milliseconds(2600) })
        let first = try XCTUnwrap(download.firstByte)
        XCTAssertGreaterThanOrEqual(first, 0.2, "the RTT comes before the first byte")
        // The link carries this transfer from when its request arrived and the RTT passed: not
        // before 0.2 s, and (a late first write catches up, http_trace.py) not after one 4096-byte
        // chunk's transmission before the first byte. A loaded machine delivers late (the
        // server's sender or this reader), never early: the bytes may lag the trace by `lag`,
        // never run ahead of it, and lose no capacity beyond that.
        let earliest = 0.2, latest = max(earliest, first - 4096 * 8 / (trace.kbps(at: first) * 1000)), lag = 0.15
        for t in [0.6, 1.0, 1.5, 2.0, 2.5] {
            let most = trace.bytes(from: earliest, to: t), least = trace.bytes(from: latest, to: t - lag)
            let got = Double(download.bytes(at: t))
            let context = "bytes by \(t) s (first byte at \(first) s; arrivals \(download.arrivals(from: t - 0.3, to: t + 0.3)))"
            XCTAssertLessThanOrEqual(got, most + max(12_000, 0.1 * most), "more than the trace carries: \(context)")
            XCTAssertGreaterThanOrEqual(got, least - max(12_000, 0.1 * least), "capacity lost: \(context)")
        }
        XCTAssertLessThanOrEqual(download.bytes(at: 1.45) - download.bytes(at: 1.05 + lag), 8192, "nothing flows in the outage")
        XCTAssertNotNil(server.shape(to: nil), "shaping lifted")
    }

    /// A loaded machine wakes the server's sender late (here 150 ms after every wait, more than
    /// the link's 0.1 s slack): a transfer under way catches up, so its bytes still follow the trace.
    func testASenderWokenLateStillCarriesTheTrace() throws {
        let server = try HTTPTestServer()
        defer { server.stop() }
        let trace = try XCTUnwrap(BandwidthTrace(steps: [.init(seconds: 10, kbps: 800)]))  // 100 kB/s
        let set = ContinuousClock.now
        XCTAssertNotNil(server.shape(to: trace, oversleepMilliseconds: 150))
        let download = TimedDownload(server.url("/file/h264-ac3-10s.mkv"), from: set)  // 653 kB: 6.5 s
        defer { download.cancel() }
        // Two seconds from when the body flows (the request itself may be late on a loaded machine).
        XCTAssertTrue(eventually(timeout: .seconds(10)) { download.firstByte != nil })
        let from = max(0.5, try XCTUnwrap(download.firstByte) + 0.2), to = from + 2
        XCTAssertTrue(eventually(timeout: .seconds(10)) { set.duration(to: .now) > .seconds(to + 0.2) })
        let got = Double(download.bytes(at: to) - download.bytes(at: from))
        XCTAssertEqual(got, 200_000, accuracy: 25_000, "bytes from \(from) to \(to) s at 100 kB/s (arrivals \(download.arrivals(from: from - 0.1, to: to + 0.1)))")
    }

    func testTheTraceArithmetic() throws {
        let trace = try BandwidthTrace(text: "# a comment\n2 1000\n\n1 0   # an outage\n1 4000\n")
        XCTAssertEqual(trace.period, 4)
        XCTAssertEqual(trace.kbps(at: 0.5), 1000)
        XCTAssertEqual(trace.kbps(at: 2.5), 0)
        XCTAssertEqual(trace.kbps(at: 7.5), 4000, "repeats after its period")
        XCTAssertEqual(trace.bytes(from: 0, to: 4), 250_000 + 500_000, accuracy: 1e-6)
        XCTAssertEqual(trace.bytes(from: 1, to: 6), 125_000 + 500_000 + 250_000, accuracy: 1e-6)
        XCTAssertEqual(trace.queryValue, "2:1000,1:0,1:4000")
        XCTAssertThrowsError(try BandwidthTrace(text: "2 fast")) { XCTAssertEqual($0 as? BandwidthTrace.TraceError, .badLine(1, "2 fast")) }
        XCTAssertThrowsError(try BandwidthTrace(text: "3 0")) { XCTAssertEqual($0 as? BandwidthTrace.TraceError, .invalid) }
    }

    func testTheCommittedTracesCoverTheCasesAndAreWhatTheGeneratorMakes() throws {
        let names = ["steady-high", "steady-under-middle", "step-down", "step-up", "oscillating", "mobile-walk", "up-down-up"]
        let traces = try Dictionary(uniqueKeysWithValues: names.map { ($0, try HTTPTestServer.trace(named: $0)) })
        for (name, trace) in traces { XCTAssertTrue((60...120).contains(trace.period), "\(name): \(trace.period) s") }
        // The ladder (Fixtures/make-fixtures.sh --hls): 240p 0.36, 480p 1.04, 720p 2.5 Mb/s peak.
        XCTAssertTrue(traces["steady-high"]!.steps.allSatisfy { $0.kbps > 2 * 2504 })
        XCTAssertTrue(traces["steady-under-middle"]!.steps.allSatisfy { $0.kbps < 1037 && $0.kbps > 2 * 364 })
        let down = traces["step-down"]!, up = traces["step-up"]!
        XCTAssertGreaterThan(down.kbps(at: 1), 2504); XCTAssertLessThan(down.kbps(at: down.period - 1), 1037)
        XCTAssertLessThan(up.kbps(at: 1), 1037); XCTAssertGreaterThan(up.kbps(at: up.period - 1), 2504)
        XCTAssertTrue(traces["oscillating"]!.steps.dropLast().allSatisfy { (5...10).contains($0.seconds) })
        let walk = traces["mobile-walk"]!.steps
        XCTAssertEqual(walk.filter { $0.kbps == 0 }.reduce(0) { $0 + $1.seconds }, 10, accuracy: 1e-9, "one 10 s outage")
        XCTAssertGreaterThan(Set(walk.map(\.kbps)).count, 20, "a random walk, not steps")
        // Regenerated with the fixed seed, byte for byte.
        let out = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("traces-\(UUID().uuidString)")
        let generator = Process()
        generator.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        generator.arguments = ["python3", HTTPTestServer.tracesDirectory.appendingPathComponent("make-traces.py").path, out.path]
        try generator.run()
        generator.waitUntilExit()
        XCTAssertEqual(generator.terminationStatus, 0)
        for name in names {
            let made = try String(contentsOf: out.appendingPathComponent("\(name).txt"), encoding: .utf8)
            let committed = try String(contentsOf: HTTPTestServer.tracesDirectory.appendingPathComponent("\(name).txt"), encoding: .utf8)
            XCTAssertEqual(made, committed, name)
        }
        try? FileManager.default.removeItem(at: out)
    }
}
