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
        func signals(_ field: String) throws -> UInt64 {
            let line = ProcFS.read("/proc/\(pid)/status")?.split(separator: "\n").first { $0.hasPrefix("\(field):") }
            return try XCTUnwrap(line.flatMap { UInt64($0.dropFirst(field.count + 1).trimmingCharacters(in: .whitespaces), radix: 16) },
                                 "no \(field) in /proc/\(pid)/status")
        }
        let term: UInt64 = 1 << (UInt64(SIGTERM) - 1)
        let blocked = try signals("SigBlk"), ignored = try signals("SigIgn"), caught = try signals("SigCgt")
        let masks = "SigBlk \(String(blocked, radix: 16)) SigIgn \(String(ignored, radix: 16)) SigCgt \(String(caught, radix: 16))"
        XCTAssertEqual(blocked & term, 0, "SIGTERM blocked in the renderer: \(masks)")
        XCTAssertEqual(ignored & term, 0, "SIGTERM ignored in the renderer: \(masks)")
        XCTAssertTrue(renderer.stop(), "SIGTERM did not end gmediarender: \(renderer.log.suffix(300))")
    }
}
