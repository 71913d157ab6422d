import Foundation
import ProcessProbe
import TestSupport
import XCTest

/// `--render-log FILE`: one line per buffer the sinks render, `<kind> <pts> <running time>
/// <realtime>` in nanoseconds (the sync bench's input). Real playback of a 4 s fixture; the
/// checks are order and consistency, not durations: pts rise, a sink renders no buffer before
/// its time (the realtime span is at least the pts span), and the running time and the realtime
/// of a line were read together (their differences agree within 50 ms).
final class RenderLogCLITests: XCTestCase {
    private struct Line {
        let kind: String
        let pts: Int64
        let running: Int64
        let realtime: Int64
    }

    /// The headless sinks gstplay picks (`fakevideosink`/`fakeaudiosink`): their `handoff`.
    func testHeadlessSinksLogEveryRenderedBuffer() throws {
        let lines = try play(extra: [])
        try check(lines, kind: "video", minimumCount: 30)   // 4 s at 30 fps: 120 frames
        try check(lines, kind: "audio", minimumCount: 10)
    }

    /// A sink without `handoff` (`appsink`): the buffer probe and the computed render moment.
    func testSinkWithoutHandoffIsLoggedFromItsPad() throws {
        let lines = try play(extra: ["--video-sink", "appsink sync=true drop=true max-buffers=1 wait-on-eos=false"])
        try check(lines, kind: "video", minimumCount: 30)
        try check(lines, kind: "audio", minimumCount: 10)
    }

    func testUnwritableFileIsAUsageError() throws {
        let result = try GstplayProcess.run(["--quiet", "--render-log", "/nonexistent-dir/render.log", TestMedia.vp8])
        XCTAssertEqual(result.status, 2)
        XCTAssertTrue(result.stderr.hasPrefix("gstplay: error: --render-log: cannot write the render log '/nonexistent-dir/render.log': "), result.stderr)
        XCTAssertEqual(GstplayProcess.completeLines(result.stderr).count, 1, result.stderr)
    }

    private func play(extra: [String]) throws -> [Line] {
        let path = NSTemporaryDirectory() + "render-\(UUID().uuidString).log"
        defer { try? FileManager.default.removeItem(atPath: path) }
        let result = try GstplayProcess.run(["--quiet", "--render-log", path] + extra + [TestMedia.vp8], timeout: 60)
        XCTAssertEqual(result.status, 0, result.stderr)
        let text = try String(contentsOfFile: path, encoding: .utf8)
        return try text.split(separator: "\n").map { raw in
            let fields = raw.split(separator: " ")
            guard fields.count == 4, let pts = Int64(fields[1]), let running = Int64(fields[2]), let realtime = Int64(fields[3]) else {
                throw NSError(domain: "RenderLogCLITests", code: 1, userInfo: [NSLocalizedDescriptionKey: "bad line '\(raw)'"])
            }
            return Line(kind: String(fields[0]), pts: pts, running: running, realtime: realtime)
        }
    }

    private func check(_ all: [Line], kind: String, minimumCount: Int) throws {
        let lines = all.filter { $0.kind == kind }
        XCTAssertGreaterThanOrEqual(lines.count, minimumCount, "\(kind) lines")
        XCTAssertTrue(all.allSatisfy { $0.kind == "video" || $0.kind == "audio" })
        guard let first = lines.first, let last = lines.last else { return }
        for (earlier, later) in zip(lines, lines.dropFirst()) {
            XCTAssertLessThan(earlier.pts, later.pts, "\(kind): pts rise")
            XCTAssertLessThanOrEqual(earlier.realtime, later.realtime, "\(kind): realtime never goes back")
        }
        // Under a sanitizer the first frames leave late (TSan: 220 ms behind, caught up within 10
        // frames), which a logged moment reports as it is; the bound is for an ordinary build.
        let bound: Int64 = ProcessProbe.underSanitizer ? 500_000_000 : 50_000_000
        for line in lines {
            let drift = (line.running - first.running) - (line.realtime - first.realtime)
            XCTAssertLessThan(abs(drift), bound, "\(kind) pts \(line.pts): running time and realtime apart by \(drift) ns")
        }
        let ptsSpan = last.pts - first.pts
        let realSpan = last.realtime - first.realtime
        XCTAssertGreaterThan(ptsSpan, 2_000_000_000, "\(kind) covers most of the 4 s")
        XCTAssertGreaterThanOrEqual(realSpan, ptsSpan - 50_000_000, "\(kind): rendered on the clock, not faster")
        XCTAssertLessThan(realSpan, ptsSpan + 20_000_000_000, "\(kind): rendered in about real time")
    }
}
