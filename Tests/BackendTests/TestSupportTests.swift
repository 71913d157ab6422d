import Backend
import Dispatch
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Glibc
import ProcessProbe
import Synchronization
import TestSupport
import XCTest

/// The test support itself: each helper must be able to tell a broken behaviour from a working one.
final class TestSupportTests: XCTestCase {
    // MARK: EventRecorder

    func testRecorderTellsTheLoopThreadFromOtherThreads() {
        let onLoop = EventRecorder()
        let player = Player.forTesting(onLoop) { $0.autoplay = false }
        player.load(TestMedia.short)
        onLoop.waitFor("ready") { onLoop.reachedState(.ready)($0) }
        player.shutdown()
        XCTAssertNotNil(onLoop.loopThreadID)
        XCTAssertTrue(onLoop.all.allSatisfy { $0.threadID == onLoop.loopThreadID })

        // Delivered on a queue: every event comes from another thread, and the recorder sees it.
        let onQueue = EventRecorder()
        let queued = Player.forTesting(onQueue) {
            $0.autoplay = false
            $0.delegateQueue = DispatchQueue(label: "delegate")
        }
        queued.load(TestMedia.short)
        onQueue.waitFor("ready") { onQueue.reachedState(.ready)($0) }
        queued.shutdown()
        XCTAssertNotNil(onQueue.loopThreadID)
        XCTAssertFalse(onQueue.all.isEmpty)
        XCTAssertTrue(onQueue.all.allSatisfy { $0.threadID != onQueue.loopThreadID && $0.threadID > 0 })
    }

    // MARK: Player.waitFor

    func testWaitForReturnsTheEventAndThrowsOnTimeoutAndShutdown() async throws {
        let player = Player.forTesting(sync: false) { $0.autoplay = false }
        let ready = try await player.waitFor("ready", where: { $0.newState == .ready }) { player.load(TestMedia.short) }
        XCTAssertEqual(ready, .stateChanged(from: .opening, to: .ready))
        do {
            try await player.waitFor("EOS without play", where: \.isEndOfStream, timeout: .milliseconds(300))
            XCTFail("no EOS can come without play")
        } catch let error as EventWaitError {
            XCTAssertTrue(error.description.contains("timed out"), error.description)
        }
        do {
            try await player.waitFor("EOS", where: \.isEndOfStream) { player.shutdown() }
            XCTFail("shutdown ends the stream")
        } catch let error as EventWaitError {
            XCTAssertTrue(error.description.contains("stream ended"), error.description)
        }
    }

    // MARK: HTTPTestServer

    func testServerRangesStatusesAndRequestLog() async throws {
        let server = try HTTPTestServer()
        defer { server.stop() }
        var request = URLRequest(url: URL(string: server.url("/file/short-0.2s.mp4"))!)
        request.setValue("bytes=100-", forHTTPHeaderField: "Range")
        let (ranged, rangedResponse) = try await URLSession.shared.data(for: request)
        XCTAssertEqual((rangedResponse as? HTTPURLResponse)?.statusCode, 206)
        XCTAssertEqual(ranged.count, 5725 - 100)
        let (whole, wholeResponse) = try await URLSession.shared.data(for: {
            var r = URLRequest(url: URL(string: server.url("/file/short-0.2s.mp4?norange=1"))!)
            r.setValue("bytes=100-", forHTTPHeaderField: "Range")
            return r
        }())
        XCTAssertEqual((wholeResponse as? HTTPURLResponse)?.statusCode, 200, "no-Range mode ignores Range")
        XCTAssertEqual(whole.count, 5725)
        XCTAssertNil((wholeResponse as? HTTPURLResponse)?.value(forHTTPHeaderField: "Accept-Ranges"))
        let (_, missing) = try await URLSession.shared.data(from: URL(string: server.url("/status/503"))!)
        XCTAssertEqual((missing as? HTTPURLResponse)?.statusCode, 503)
        let log = server.requests(clear: true)
        XCTAssertEqual(log.map(\.path), ["/file/short-0.2s.mp4", "/file/short-0.2s.mp4?norange=1", "/status/503"])
        XCTAssertEqual(log.map(\.status), [206, 200, 503])
        XCTAssertEqual(log.first?.range, "bytes=100-")
        XCTAssertEqual(server.requests(), [], "cleared")
    }

    func testThrottleChangesPerPathWhileATransferRuns() async throws {
        let server = try HTTPTestServer()
        defer { server.stop() }
        // 64 KiB at 1000 B/s would take over a minute.
        XCTAssertTrue(server.throttle("/file/garbage.bin", bytesPerSecond: 1000))
        let slow = Task { try await URLSession.shared.data(from: URL(string: server.url("/file/garbage.bin"))!).0.count }
        XCTAssertTrue(eventually(timeout: .seconds(10)) { server.requests().contains { $0.path == "/file/garbage.bin" && $0.status == 200 } },
                      "the transfer started")
        // Other paths are not throttled.
        let (other, _) = try await URLSession.shared.data(from: URL(string: server.url("/file/short-0.2s.mp4"))!)
        XCTAssertEqual(other.count, 5725)
        // Lifting the limit speeds up the transfer under way.
        let started = ContinuousClock.now
        XCTAssertTrue(server.throttle("/file/garbage.bin", bytesPerSecond: nil))
        let received = try await slow.value
        XCTAssertEqual(received, 65536)
        XCTAssertLessThan(ContinuousClock.now - started, .seconds(10), "finished long before the throttled minute")
    }

    // MARK: ProcessProbe

    func testProbeSeesThreadsDescriptorsAndMemoryOfThisProcess() {
        let probe = ProcessProbe.current
        // Whole-process counts are not compared: libdispatch starts and retires its pool workers on
        // its own, most in a young process under load (`swift test --parallel`). One thread is
        // followed instead: absent, then listed, then gone once it ended.
        let release = DispatchSemaphore(value: 0), running = DispatchSemaphore(value: 0)
        let tid = Atomic<Int32>(0)
        let before = Set(probe.threadIDs ?? [])
        let thread = Thread { tid.store(ProcessProbe.currentThreadID, ordering: .relaxed); running.signal(); release.wait() }
        thread.start()
        running.wait()
        let id = String(tid.load(ordering: .relaxed))
        XCTAssertFalse(before.isEmpty)
        XCTAssertFalse(before.contains(id))
        XCTAssertTrue(probe.threadIDs?.contains(id) ?? false)
        XCTAssertGreaterThanOrEqual(probe.threadCount ?? 0, 2, "the main thread and the new one")
        XCTAssertNotEqual(tid.load(ordering: .relaxed), getpid())
        release.signal()
        XCTAssertTrue(eventually { !(probe.threadIDs ?? []).contains(id) }, "the ended thread left the listing")

        let descriptors = probe.descriptorCount ?? -1
        let fd = open("/dev/null", O_RDONLY)
        XCTAssertEqual(probe.descriptorCount, descriptors + 1)
        XCTAssertEqual(probe.descriptorTarget(fd), "/dev/null")
        close(fd)
        XCTAssertEqual(probe.descriptorCount, descriptors)

        // smaps is far longer than one read(2) chunk of a naive reader; every mapping is parsed.
        // Two reads of a moving file: under TSan thread stacks and shadow mappings come and go
        // between them (13 apart once), so a reading taken while they move is taken again.
        var mappingCount = 0, rssLines = 0
        for attempt in 0..<5 {
            let smaps = ProcFS.read("/proc/self/smaps") ?? ""
            if attempt == 0 { XCTAssertGreaterThan(smaps.utf8.count, 65536) }
            rssLines = smaps.split(separator: "\n").filter { $0.hasPrefix("Rss:") }.count
            mappingCount = probe.mappings?.count ?? 0
            if abs(mappingCount - rssLines) <= 10 { break }
        }
        XCTAssertEqual(Double(mappingCount), Double(rssLines), accuracy: 10, "one mapping per Rss line (a few come and go between reads)")
        XCTAssertNil(smapsMismatch(probe), "smaps adds up to VmRSS")
        XCTAssertEqual(probe.state, "R", "this process is running")
        XCTAssertEqual(ProcessProbe(pid: getpid()).executable, probe.executable)
    }

    // MARK: ResourceBaseline

    func testResourceBaselineTellsKeptDescriptorsFromReleasedOnes() {
        let baseline = ResourceBaseline()
        // Ten over the tolerance: in one test process (`swift test --sanitize=thread`) an earlier
        // test's threads may still close a descriptor or two meanwhile (seen: +3 read as +2).
        let kept = (0..<ResourceBaseline.descriptorTolerance + 10).map { _ in open("/dev/null", O_RDONLY) }
        let held = baseline.settle(timeout: .milliseconds(300))
        XCTAssertGreaterThan(held.descriptors, baseline.counts.descriptors + ResourceBaseline.descriptorTolerance)
        XCTAssertFalse(baseline.holds(held), "\(held) against \(baseline.counts)")
        for fd in kept { close(fd) }
        let released = baseline.settle(timeout: .seconds(5))
        XCTAssertTrue(baseline.holds(released), "\(released) against \(baseline.counts)")
    }

    /// Nil when the `Rss:` total of ``ProcessProbe/mappings`` is within 20 % of `VmRSS` read just
    /// before and just after it, while `VmRSS` itself held still (within 5 %); else the readings.
    /// Under TSan and ASan a long test process's RSS moves by tens of MB between two reads (shadow
    /// memory, the quarantine: `make test-tsan` once read 287,788 kB of smaps against a later VmRSS
    /// of 218,792 kB, while the same counters read from outside the process agree to the page), so
    /// a moving reading is taken again, at most 10 times.
    private func smapsMismatch(_ probe: ProcessProbe) -> String? {
        var readings: [String] = []
        for _ in 0..<10 {
            let before = probe.rssKiB ?? 0
            let total = (probe.mappings ?? []).reduce(0) { $0 + $1.rssKiB }
            let after = probe.rssKiB ?? 0
            readings.append("VmRSS \(before) kB, smaps \(total) kB, VmRSS \(after) kB")
            let low = Double(min(before, after)), high = Double(max(before, after))
            guard low > 0, high <= low * 1.05 else { continue }
            return Double(total) >= low * 0.8 && Double(total) <= high * 1.2 ? nil : readings.last
        }
        return "VmRSS never held still: \(readings)"
    }
}
