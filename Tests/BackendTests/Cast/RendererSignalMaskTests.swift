import Foundation
import ProcessProbe
import TestSupport
import XCTest

/// A renderer the lab starts can be stopped with SIGTERM (and so says byebye) whatever thread
/// first used the lab. Here an async test does, on a libdispatch worker thread, which blocks
/// most signals: the lab's spawner thread inherited that mask, every renderer it started had
/// SIGTERM blocked, ignored `stop()` and was SIGKILLed without its byebye (the byebye tests failed
/// in `make test-tsan`/`make test-asan` when an async cast test ran first, 2026-11-25).
final class RendererSignalMaskTests: XCTestCase {
    func testARendererStartedFromAnAsyncTestHasSIGTERMUnblocked() async throws {
        let lab = try RendererLab()
        defer { lab.tearDown() }
        let renderer = try lab.startGMediaRender(name: "Mask gmr")
        let pid = renderer.process.process.processIdentifier
        let blocked = ProcFS.read("/proc/\(pid)/status")?.split(separator: "\n")
            .first { $0.hasPrefix("SigBlk:") }
            .flatMap { UInt64($0.dropFirst("SigBlk:".count).trimmingCharacters(in: .whitespaces), radix: 16) }
        let mask = try XCTUnwrap(blocked, "no SigBlk in /proc/\(pid)/status")
        XCTAssertEqual(mask & (1 << (UInt64(SIGTERM) - 1)), 0, "SIGTERM blocked in the renderer: SigBlk \(String(mask, radix: 16))")
        XCTAssertTrue(renderer.stop(grace: .seconds(5)), "SIGTERM did not end gmediarender: \(renderer.log.suffix(300))")
    }
}
