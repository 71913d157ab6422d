import Backend
import Foundation
import ProcessProbe
import TestSupport
import XCTest

/// Loading a FIFO never blocks the player's loop thread (the open of a FIFO
/// without a writer would wait forever), shutdown leaves no thread in `open()`, and the FIFO
/// plays once a writer appears.
final class FIFOLoadTests: XCTestCase {
    private var fifo = ""

    override func setUpWithError() throws {
        fifo = NSTemporaryDirectory() + "gstplay-fifo-\(UUID().uuidString).ogg"
        guard mkfifo(fifo, 0o600) == 0 else { throw NSError(domain: "mkfifo", code: Int(errno)) }
    }

    override func tearDownWithError() throws { unlink(fifo) }

    /// Threads of this process sleeping in a FIFO's `open()`.
    private func threadsInFIFOOpen() -> [String] {
        let probe = ProcessProbe.current
        return (probe.threadIDs ?? []).filter { probe.waitChannel(thread: $0) == "wait_for_partner" }
    }

    /// How many of this process's descriptors are open on the test's FIFO.
    private func descriptorsOnTheFIFO() -> Int {
        let probe = ProcessProbe.current
        return (ProcFS.entries("/proc/self/fd") ?? []).compactMap(Int32.init).filter { probe.descriptorTarget($0) == fifo }.count
    }

    /// Runs `body` on a thread of its own; true when it returned within `timeout`.
    private func returns(within timeout: TimeInterval, _ body: @escaping @Sendable () -> Void) -> Bool {
        let done = DispatchSemaphore(value: 0)
        Thread { body(); done.signal() }.start()
        return done.wait(timeout: .now() + timeout) == .success
    }

    func testLoadingAFIFOWithoutAWriterLeavesTheLoopFreeAndShutdownLeavesNoThreadInOpen() throws {
        let recorder = EventRecorder()
        let player = Player.forTesting(recorder)
        player.load(fifo)
        recorder.waitFor("the uri event") { $0.contains { if case .uriLoaded = $0 { return true } else { return false } } }
        let loopAnswers = returns(within: 2) { _ = player.refreshStatistics() }
        if !loopAnswers {
            // The loop thread sits in open(): a writer that comes and goes lets it out, so the
            // test can end (the failure stands).
            let writer = open(fifo, O_WRONLY | O_NONBLOCK)
            if writer >= 0 { close(writer) }
        }
        XCTAssertTrue(loopAnswers, "the loop thread did not answer within 2 s while a FIFO waits for a writer")
        XCTAssertEqual(descriptorsOnTheFIFO(), 1, "the player holds the FIFO open (without a writer)")
        XCTAssertTrue(returns(within: 2) { player.shutdown() }, "shutdown took more than 2 s")
        XCTAssertTrue(eventually(timeout: .seconds(2)) { self.threadsInFIFOOpen().isEmpty }, "a thread is left in open(): \(threadsInFIFOOpen())")
        XCTAssertEqual(descriptorsOnTheFIFO(), 0, "shutdown closed the FIFO")
    }

    func testAFIFOPlaysToTheEndOnceAWriterAppears() throws {
        let recorder = EventRecorder()
        let player = Player.forTesting(recorder)
        defer { player.shutdown() }
        player.load(fifo)
        let media = try Data(contentsOf: URL(fileURLWithPath: TestMedia.path("audio-only-4s.ogg")))
        FIFOWriter.start(Array(media), to: fifo)
        recorder.waitFor("the end of the stream", timeout: 20) { $0.contains(where: \.isEndOfStream) }
        XCTAssertNil(recorder.events.compactMap(\.error).first, "no error: \(recorder.events.compactMap(\.error))")
        XCTAssertGreaterThan(recorder.events.compactMap(\.position).max()?.seconds ?? 0, 3, "played the 4 s clip in real time")
    }
}
